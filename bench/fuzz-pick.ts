/** The seeded chooser every fuzz case draws from (bench/fuzz-cases.ts): same seed, same choices. */
export class Pick {
  constructor(readonly r: () => number) {}
  int(max: number): number {
    return Math.floor(this.r() * max);
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  one<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  uuid(): string {
    const hex = () => this.int(16).toString(16);
    const part = (n: number) => Array.from({ length: n }, hex).join('');
    return `${part(8)}-${part(4)}-4${part(3)}-${this.one(['8', '9', 'a', 'b'])}${part(3)}-${part(12)}`;
  }
  text(max: number): string {
    const alphabet = [
      'a',
      'Z',
      '0',
      ' ',
      '"',
      '\\',
      '/',
      '%',
      '{',
      ']',
      '\u0000',
      '\u001f',
      'é',
      '漢',
      '\ud83d',
      '😀',
    ];
    return Array.from({ length: this.int(max + 1) }, () => this.one(alphabet)).join('');
  }
}
