// A binary min-heap; the scheduler keys it on (due time, insertion order).
export class MinHeap<T> {
  readonly #items: T[] = [];
  readonly #less: (a: T, b: T) => boolean;

  constructor(less: (a: T, b: T) => boolean) {
    this.#less = less;
  }

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(item, items[parent] as T)) {
        break;
      }
      items[i] = items[parent] as T;
      i = parent;
    }
    items[i] = item;
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) {
      return top;
    }
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) {
        break;
      }
      const right = left + 1;
      const child =
        right < items.length && this.#less(items[right] as T, items[left] as T) ? right : left;
      if (!this.#less(items[child] as T, last)) {
        break;
      }
      items[i] = items[child] as T;
      i = child;
    }
    items[i] = last;
    return top;
  }
}
