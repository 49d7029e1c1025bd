import type { ParamIndexMap, Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { checkOptionalParameter, getPattern, splitPath, splitRoutingPath } from 'hono/utils/url';

/** A route as a node holds it: its method, handler, order of registration and params' places. */
interface Entry<T> {
  method: string;
  handler: T;
  order: number;
  /** Each param's name and the index of its segment in the path's segments. */
  params: ParamIndexMap;
}

/** The answers kept for the nodes matched so far; `next` by the id of the node matched after. */
class Answers<T> {
  answer: [T, ParamIndexMap][] | undefined;
  readonly next = new Map<number, Answers<T>>();
}

class Node<T> {
  readonly id: number;
  readonly entries: Entry<T>[] = [];
  readonly statics = new Map<string, Node<T>>();
  /** Children for `:name` segments, by label, in the order they were added. */
  readonly params = new Map<string, Node<T>>();
  /** Children for `:name{regex}` segments: matched by the Trie router (see match). */
  readonly patterned: Node<T>[] = [];
  star: Node<T> | undefined;

  constructor(id: number) {
    this.id = id;
  }
}

/**
 * Hono's Trie router's answers, made without its cost: the Trie router builds a params object a
 * candidate node and a segment, and sorts and maps its matches on every request; for a read by id
 * that was a tenth of what svc spent on it. This walks the same tree the same way, for the
 * segments svc's routes use (static, `:name`, a final `*`), and notes which nodes matched; the
 * handlers those nodes give, in order, with each param's place among the path's segments, are
 * worked out once for that set of nodes and kept. The path's segments are the params' values.
 *
 * What it does not take (a `:name{regex}` segment on the way, a `*` before the end, `abc*`), it
 * leaves to a Trie router holding the same routes, so its answers are the Trie router's always
 * (test/platform/router.test.ts holds it to that on every route of the app).
 */
export class SegmentRouter<T> implements Router<T> {
  readonly name = 'SegmentRouter';
  readonly #trie = new TrieRouter<T>();
  #nodes = 0;
  readonly #root = this.#node();
  #order = 0;
  /** A route it does not take was added: every match is the Trie router's. */
  #trieOnly = false;
  /** By method, then the nodes that matched: the handlers they give, with their params' places. */
  readonly #answers = new Map<string, Answers<T>>();

  add(method: string, path: string, handler: T): void {
    this.#trie.add(method, path, handler);
    this.#answers.clear();
    for (const one of checkOptionalParameter(path) ?? [path]) {
      this.#insert(method, one, handler);
    }
  }

  #node(): Node<T> {
    return new Node<T>(this.#nodes++);
  }

  #insert(method: string, path: string, handler: T): void {
    const parts = splitRoutingPath(path);
    const params: ParamIndexMap = {};
    let node = this.#root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const pattern = getPattern(part, parts[i + 1]);
      if (pattern === '*') {
        if (!last) {
          this.#trieOnly = true;
        }
        node.star ??= this.#node();
        node = node.star;
      } else if (Array.isArray(pattern)) {
        const [label, name, matcher] = pattern;
        let child = matcher === true ? node.params.get(label) : undefined;
        if (!child) {
          child = this.#node();
          if (matcher === true) {
            node.params.set(label, child);
          } else {
            node.patterned.push(child);
          }
        }
        node = child;
        if (!Object.hasOwn(params, name)) {
          params[name] = i;
        }
      } else {
        if (last && part.endsWith('*')) {
          this.#trieOnly = true; // `abc*`: a prefix of the segment
        }
        let child = node.statics.get(part);
        if (!child) {
          child = this.#node();
          node.statics.set(part, child);
        }
        node = child;
      }
    });
    node.entries.push({ method, handler, order: ++this.#order, params });
  }

  match(method: string, path: string): Result<T> {
    if (this.#trieOnly) {
      return this.#trie.match(method, path);
    }
    const parts = splitPath(path);
    // Scratch lists, reused: a match runs to its end before another starts.
    const matched = this.#matched;
    let current = this.#current;
    let next = this.#next;
    matched.length = 0;
    current.length = 0;
    current.push(this.#root);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      const last = i === parts.length - 1;
      next.length = 0;
      for (const node of current) {
        const child = node.statics.get(part);
        if (child) {
          if (last) {
            if (child.star) {
              matched.push(child.star);
            }
            matched.push(child);
          } else {
            next.push(child);
          }
        }
        if (node.patterned.length > 0) {
          return this.#trie.match(method, path); // a regex decides: the Trie router's way
        }
        if (node.star) {
          matched.push(node.star);
          next.push(node.star);
        }
        if (part === '') {
          continue; // a param never matches an empty segment
        }
        for (const param of node.params.values()) {
          if (last) {
            matched.push(param);
            if (param.star) {
              matched.push(param.star);
            }
          } else {
            next.push(param);
          }
        }
      }
      [current, next] = [next, current];
    }
    return [this.#answer(method, matched), parts];
  }

  readonly #matched: Node<T>[] = [];
  readonly #current: Node<T>[] = [];
  readonly #next: Node<T>[] = [];

  /** The answer for `method` and the nodes `matched`, kept in a tree of them by id. */
  #answer(method: string, matched: readonly Node<T>[]): [T, ParamIndexMap][] {
    let at: Answers<T> | undefined = this.#answers.get(method);
    if (!at) {
      at = new Answers<T>();
      this.#answers.set(method, at);
    }
    for (const node of matched) {
      let then: Answers<T> | undefined = at.next.get(node.id);
      if (!then) {
        then = new Answers<T>();
        at.next.set(node.id, then);
      }
      at = then;
    }
    at.answer ??= matched
      .flatMap((node) => node.entries)
      .filter((e) => e.method === method || e.method === 'ALL')
      .sort((a, b) => a.order - b.order)
      .map((e): [T, ParamIndexMap] => [e.handler, e.params]);
    return at.answer;
  }
}
