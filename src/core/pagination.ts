import { APIPromise, type RawResponse } from './api-promise.js';
import { InvalidArgumentError } from './base-error.js';

/** Where a page sits in a listing, as the API reports it. */
export interface PaginationInfo {
  /** Current page, 1-based. */
  page: number;
  /** Results per page. */
  pageSize: number;
  /** Total matching results across all pages. */
  total: number;
}

/** Fetches page number `page` of the same query. */
export type PageFetcher<T> = (page: number) => PagePromise<T>;

/** One page of a list: its items, the pagination numbers, and a way to the next page. */
export class Page<T> implements AsyncIterable<T> {
  /** The items on this page. */
  readonly items: T[];
  /** This page's number, size and the listing's total. */
  readonly pagination: PaginationInfo;
  readonly #fetch: PageFetcher<T>;

  /**
   * Made by list calls, not by callers.
   * @internal
   */
  constructor(items: T[], pagination: PaginationInfo, fetch: PageFetcher<T>) {
    this.items = items;
    this.pagination = pagination;
    this.#fetch = fetch;
  }

  /** Whether another page follows (this one is not empty and the total goes beyond it). */
  hasNextPage(): boolean {
    const { page, pageSize, total } = this.pagination;
    return this.items.length > 0 && page * pageSize < total;
  }

  /**
   * The following page; check `hasNextPage()` first. On the last page it rejects with
   * InvalidArgumentError (kind `MV_INVALID_ARGUMENT`) without sending anything.
   */
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
  /**
   * Made by list calls, not by callers.
   * @internal
   */
  constructor(raw: Promise<RawResponse>, parse: (raw: RawResponse) => Page<T>) {
    super(raw, parse);
  }

  /**
   * A list call that fails before sending anything (bad input).
   * @internal
   */
  static rejectedPage<T>(error: unknown): PagePromise<T> {
    return new PagePromise<T>(Promise.reject(error), () => {
      throw error;
    });
  }

  /** Every item of every page, fetching the following pages as the loop reaches them. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    const first = await this;
    yield* first;
  }
}
