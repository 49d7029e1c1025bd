import { queries } from './query';
import { walkOperations } from './run';

walkOperations(queries);
