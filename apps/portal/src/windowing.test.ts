import { describe, expect, it } from "vitest"
import { nearEnd, windowRange } from "./windowing.js"

describe("windowRange", () => {
  it("renders only the rows the viewport shows plus the overscan, the rest as padding", () => {
    const range = windowRange({
      count: 10_000,
      rowHeight: 40,
      scrollOffset: 40 * 5_000,
      viewportHeight: 800,
      overscan: 5
    })
    expect(range).toEqual({ start: 4_995, end: 5_025, padTop: 4_995 * 40, padBottom: (10_000 - 5_025) * 40 })
    // The whole list's height is kept: padding plus the rendered rows.
    expect(range.padTop + (range.end - range.start) * 40 + range.padBottom).toBe(10_000 * 40)
  })

  it("starts at the first row while the list is below the viewport's top", () => {
    expect(
      windowRange({ count: 10_000, rowHeight: 50, scrollOffset: -300, viewportHeight: 900, overscan: 2 })
    ).toEqual({ start: 0, end: 14, padTop: 0, padBottom: (10_000 - 14) * 50 })
  })

  it("never renders more than the rows there are, nor past the end", () => {
    expect(windowRange({ count: 3, rowHeight: 40, scrollOffset: 0, viewportHeight: 900 })).toEqual({
      start: 0,
      end: 3,
      padTop: 0,
      padBottom: 0
    })
    const past = windowRange({
      count: 100,
      rowHeight: 40,
      scrollOffset: 1_000_000,
      viewportHeight: 900,
      overscan: 4
    })
    expect(past).toEqual({ start: 100, end: 100, padTop: 4_000, padBottom: 0 })
    expect(windowRange({ count: 0, rowHeight: 40, scrollOffset: 0, viewportHeight: 900 })).toEqual({
      start: 0,
      end: 0,
      padTop: 0,
      padBottom: 0
    })
  })

  it("keeps the number of rendered rows bounded by the viewport, whatever the list's size", () => {
    for (const count of [100, 10_000, 1_000_000]) {
      const range = windowRange({
        count,
        rowHeight: 36,
        scrollOffset: 36 * 50,
        viewportHeight: 720,
        overscan: 8
      })
      expect(range.end - range.start).toBeLessThanOrEqual(720 / 36 + 2 * 8 + 1)
    }
  })

  it("survives a zero or negative row height and a fractional count", () => {
    const range = windowRange({ count: 10.7, rowHeight: 0, scrollOffset: 3, viewportHeight: 2, overscan: 0 })
    expect(range.start).toBe(3)
    expect(range.end).toBe(5)
  })
})

describe("nearEnd", () => {
  it("asks for the next page when the rendered rows reach the last `margin` loaded", () => {
    expect(nearEnd({ start: 150, end: 181, padTop: 0, padBottom: 0 }, 200)).toBe(true)
    expect(nearEnd({ start: 100, end: 179, padTop: 0, padBottom: 0 }, 200)).toBe(false)
    expect(nearEnd({ start: 0, end: 0, padTop: 0, padBottom: 0 }, 0)).toBe(false)
  })
})
