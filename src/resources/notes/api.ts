// What other families use of the notes family: they import it through here and
// nowhere else (test/architecture holds them to it).

export { putNote } from './service';
