import { bodies } from './bodies';
import { walkOperations } from './run';

walkOperations(bodies);
