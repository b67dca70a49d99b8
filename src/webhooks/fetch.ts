/**
 * The slice of the WHATWG `fetch` the webhook toolkit uses. The global `fetch` satisfies it; tests
 * and the local simulator pass their own to serve certificates and public keys without a network.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** The global fetch, looked up at call time so that test-time replacements of it are honoured. */
export const globalFetch: FetchLike = (input, init) => fetch(input, init);
