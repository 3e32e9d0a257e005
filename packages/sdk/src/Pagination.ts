/**
 * Lists over `limit`/`offset` pages. Awaiting a list gives its first page; iterating it with
 * `for await` walks every page; `toArray({ limit })` collects up to `limit` items. Nothing is
 * requested until one of those happens. A list whose route takes a cursor (`starting_after`,
 * the last id of the page before) walks by it: every page then costs the service what the
 * first does, however deep.
 */

/** Fetches one page starting at `offset`, or right after the item `startingAfter` when given. */
export type PageFetcher<T> = (
  offset: number,
  limit: number,
  startingAfter?: string
) => Promise<ReadonlyArray<T>>

export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 200
/** The default ceiling of `toArray`, so a forgotten filter cannot exhaust memory. */
export const DEFAULT_TO_ARRAY_LIMIT = 10_000

const idOf = (item: unknown): string | undefined => {
  if (typeof item !== "object" || item === null) return undefined
  const id = (item as { id?: unknown }).id
  return typeof id === "string" ? id : undefined
}

/** A list call: a Promise of the first page that also async-iterates all pages. */
export class ListPromise<T> implements Promise<ReadonlyArray<T>>, AsyncIterable<T> {
  readonly [Symbol.toStringTag] = "ListPromise"
  readonly #fetchPage: PageFetcher<T>
  readonly #pageSize: number
  readonly #offset: number
  readonly #cursor: boolean
  #first: Promise<ReadonlyArray<T>> | undefined

  constructor(
    fetchPage: PageFetcher<T>,
    options: { readonly limit?: number; readonly offset?: number; readonly cursor?: boolean } = {}
  ) {
    this.#fetchPage = fetchPage
    this.#pageSize = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.trunc(options.limit ?? DEFAULT_PAGE_SIZE)))
    this.#offset = Math.max(0, Math.trunc(options.offset ?? 0))
    this.#cursor = options.cursor ?? false
  }

  #firstPage(): Promise<ReadonlyArray<T>> {
    this.#first ??= this.#fetchPage(this.#offset, this.#pageSize)
    return this.#first
  }

  // biome-ignore lint/suspicious/noThenProperty: a list is deliberately awaitable (its first page)
  then<A = ReadonlyArray<T>, B = never>(
    onfulfilled?: ((value: ReadonlyArray<T>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null
  ): Promise<A | B> {
    return this.#firstPage().then(onfulfilled, onrejected)
  }

  catch<B = never>(
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null
  ): Promise<ReadonlyArray<T> | B> {
    return this.#firstPage().catch(onrejected)
  }

  finally(onfinally?: (() => void) | null): Promise<ReadonlyArray<T>> {
    return this.#firstPage().finally(onfinally)
  }

  /**
   * Every item of every page, in order. An item already seen is skipped: on a newest-first
   * list, objects created while iterating push older ones to later offsets.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const seen = new Set<string>()
    let offset = this.#offset
    let page = await this.#firstPage()
    for (;;) {
      for (const item of page) {
        const id = idOf(item)
        if (id !== undefined) {
          if (seen.has(id)) continue
          seen.add(id)
        }
        yield item
      }
      if (page.length < this.#pageSize) return
      const last = this.#cursor ? idOf(page[page.length - 1]) : undefined
      if (last !== undefined) {
        page = await this.#fetchPage(0, this.#pageSize, last)
        continue
      }
      offset += page.length
      page = await this.#fetchPage(offset, this.#pageSize)
    }
  }

  /** Up to `limit` items (default 10000) across pages. */
  async toArray(options: { readonly limit?: number } = {}): Promise<Array<T>> {
    const limit = options.limit ?? DEFAULT_TO_ARRAY_LIMIT
    const out: Array<T> = []
    if (limit <= 0) return out
    for await (const item of this) {
      out.push(item)
      if (out.length >= limit) break
    }
    return out
  }
}
