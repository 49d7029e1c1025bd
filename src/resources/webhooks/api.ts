// What other families use of the webhooks family: they import it through here and
// nowhere else (test/architecture holds them to it).

export { checkReachable, isLocalAddress, parseTarget } from './targets';
