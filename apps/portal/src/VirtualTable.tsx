/**
 * A table that renders only the rows near the viewport (windowing.ts), so a list of 10,000 rows
 * scrolls as smoothly as one of 20. The page itself scrolls (no inner scroll box, which a phone
 * handles badly); spacer rows keep the scroll bar true. Row height is measured from the rows
 * rendered, so the phone layout (a card per row) works too. `onNearEnd` asks for the next page.
 */
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from "react"
import { nearEnd, windowRange } from "./windowing.js"

export interface VirtualTableProps<T> {
  readonly caption: string
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<T>
  readonly rowKey: (row: T) => string
  /** The row's cells (`<td>`s, each with its `data-titulo` for the phone layout). */
  readonly cells: (row: T) => ReactNode
  /** Called when the rendered rows come near the last loaded one. */
  readonly onNearEnd?: () => void
  /** Row height before one is measured. */
  readonly estimate?: number
  /** A column's heading, when it is more than its name (a button that sorts by it). */
  readonly header?: (column: string) => ReactNode
  /** The order the rows follow by a column, when they follow one (`aria-sort`). */
  readonly sortedBy?: (column: string) => "ascending" | "descending" | undefined
}

/** The space of the rows not rendered: hidden from assistive technology, nothing in it takes focus. */
const Spacer = ({ height, span }: { readonly height: number; readonly span: number }) => (
  // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer row; biome takes any tr for focusable
  <tr aria-hidden="true" className="relleno" style={{ height }}>
    <td colSpan={span} />
  </tr>
)

export const VirtualTable = <T,>(props: VirtualTableProps<T>) => {
  const { caption, columns, rows, rowKey, cells, onNearEnd, estimate = 48, header, sortedBy } = props
  const body = useRef<HTMLTableSectionElement>(null)
  const [view, setView] = useState({ offset: 0, height: 900 })
  const [rowHeight, setRowHeight] = useState(estimate)

  useLayoutEffect(() => {
    let frame = 0
    const update = () => {
      frame = 0
      const top = body.current?.getBoundingClientRect().top ?? 0
      setView((old) =>
        old.offset === -top && old.height === window.innerHeight
          ? old
          : { offset: -top, height: window.innerHeight }
      )
    }
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(update)
    }
    update()
    window.addEventListener("scroll", schedule, { passive: true })
    window.addEventListener("resize", schedule)
    return () => {
      window.removeEventListener("scroll", schedule)
      window.removeEventListener("resize", schedule)
      if (frame !== 0) cancelAnimationFrame(frame)
    }
  }, [])

  const range = windowRange({
    count: rows.length,
    rowHeight,
    scrollOffset: view.offset,
    viewportHeight: view.height
  })

  // The average height of the rows on screen stands for every row.
  useLayoutEffect(() => {
    const shown = body.current?.querySelectorAll<HTMLElement>("tr[data-fila]") ?? []
    if (shown.length === 0) return
    let total = 0
    for (const row of shown) total += row.getBoundingClientRect().height
    const measured = total / shown.length
    if (measured > 0 && Math.abs(measured - rowHeight) > 1) setRowHeight(measured)
  })

  const wantsMore = onNearEnd !== undefined && nearEnd(range, rows.length)
  useEffect(() => {
    if (wantsMore) onNearEnd?.()
  }, [wantsMore, onNearEnd])

  return (
    <table className="tabla" aria-rowcount={rows.length + 1}>
      <caption className="oculto">{caption}</caption>
      <thead>
        <tr aria-rowindex={1}>
          {columns.map((column) => (
            <th scope="col" key={column} aria-sort={sortedBy?.(column)}>
              {header === undefined ? column : header(column)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody ref={body}>
        {range.padTop > 0 ? <Spacer height={range.padTop} span={columns.length} /> : null}
        {rows.slice(range.start, range.end).map((row, i) => (
          <tr key={rowKey(row)} data-fila="" aria-rowindex={range.start + i + 2}>
            {cells(row)}
          </tr>
        ))}
        {range.padBottom > 0 ? <Spacer height={range.padBottom} span={columns.length} /> : null}
      </tbody>
    </table>
  )
}
