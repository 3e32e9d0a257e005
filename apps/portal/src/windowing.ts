/**
 * Windowing for long lists (10,000 rows and more stay smooth): which rows to render for the
 * part of the list the viewport shows, and the space the others take, so the page's scroll bar
 * stays true while only a few dozen rows exist in the document. Pure, so it is unit-tested.
 */

export interface WindowInput {
  /** How many rows the list has (loaded so far). */
  readonly count: number
  /** Height of one row in CSS pixels (measured, or estimated before the first one is). */
  readonly rowHeight: number
  /** How far the viewport's top is below the list's top (negative when the list starts lower). */
  readonly scrollOffset: number
  /** The viewport's height. */
  readonly viewportHeight: number
  /** Rows rendered beyond each edge, so a fast scroll does not show blank space. */
  readonly overscan?: number
}

export interface WindowRange {
  /** The first row to render (inclusive). */
  readonly start: number
  /** The row after the last to render (exclusive). */
  readonly end: number
  /** Space standing for the rows before `start`. */
  readonly padTop: number
  /** Space standing for the rows from `end` on. */
  readonly padBottom: number
}

export const DEFAULT_OVERSCAN = 8

/** The rows to render for a viewport over a list of `count` rows of `rowHeight` each. */
export const windowRange = (input: WindowInput): WindowRange => {
  const count = Math.max(0, Math.floor(input.count))
  const rowHeight = input.rowHeight > 0 ? input.rowHeight : 1
  const overscan = Math.max(0, Math.floor(input.overscan ?? DEFAULT_OVERSCAN))
  const viewport = Math.max(0, input.viewportHeight)
  const firstVisible = Math.floor(Math.max(0, input.scrollOffset) / rowHeight)
  const lastVisible = Math.ceil(Math.max(0, input.scrollOffset + viewport) / rowHeight)
  const start = Math.min(count, Math.max(0, firstVisible - overscan))
  const end = Math.min(count, Math.max(start, lastVisible + overscan))
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight }
}

/** Whether the rendered rows come within `margin` rows of the loaded end: time to load the next page. */
export const nearEnd = (range: WindowRange, count: number, margin = 20): boolean =>
  count > 0 && range.end >= count - margin
