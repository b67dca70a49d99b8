import { APIPromise, type RawResponse } from './api-promise.js';
import { InvalidArgumentError } from './base-error.js';

export interface PaginationInfo {
  /** Current page, 1-based. */
  page: number;
  pageSize: number;
  /** Total matching results across all pages. */
  total: number;
}

/** Fetches page number `page` of the same query. */
export type PageFetcher<T> = (page: number) => PagePromise<T>;

/** One page of a list: its items, the pagination numbers, and a way to the next page. */
export class Page<T> implements AsyncIterable<T> {
  readonly items: T[];
  readonly pagination: PaginationInfo;
  readonly #fetch: PageFetcher<T>;

  constructor(items: T[], pagination: PaginationInfo, fetch: PageFetcher<T>) {
    this.items = items;
    this.pagination = pagination;
    this.#fetch = fetch;
  }

  hasNextPage(): boolean {
    const { page, pageSize, total } = this.pagination;
    return this.items.length > 0 && page * pageSize < total;
  }

  /** The following page; check `hasNextPage()` first. */
  getNextPage(): PagePromise<T> {
    if (!this.hasNextPage()) {
      return PagePromise.rejectedPage(
        new InvalidArgumentError('No next page; check hasNextPage() before getNextPage().'),
      );
    }
    return this.#fetch(this.pagination.page + 1);
  }

  /** This page and every following one. */
  async *iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /** Every item of this page and the following pages. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.items;
  }
}

/**
 * A list call: `await` it for one `Page`, or `for await` over it for every item across pages.
 */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  constructor(raw: Promise<RawResponse>, parse: (raw: RawResponse) => Page<T>) {
    super(raw, parse);
  }

  static rejectedPage<T>(error: unknown): PagePromise<T> {
    return new PagePromise<T>(Promise.reject(error), () => {
      throw error;
    });
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    const first = await this;
    yield* first;
  }
}
