import { describe, expect, it } from "vitest"
import { ListPromise } from "./Pagination.js"

const items = Array.from({ length: 7 }, (_, i) => ({ id: `l${i}` }))
const pages = () => {
  const calls: Array<[number, number]> = []
  const fetchPage = async (offset: number, limit: number) => {
    calls.push([offset, limit])
    return items.slice(offset, offset + limit)
  }
  return { calls, fetchPage }
}

describe("ListPromise", () => {
  it("a list with a cursor walks pages by the last id, not by offset", async () => {
    const calls: Array<[number, number, string | undefined]> = []
    const fetchPage = async (offset: number, limit: number, after?: string) => {
      calls.push([offset, limit, after])
      const from = after === undefined ? offset : items.findIndex((i) => i.id === after) + 1
      return items.slice(from, from + limit)
    }
    const all = await new ListPromise(fetchPage, { limit: 3, cursor: true }).toArray()
    expect(all).toEqual(items)
    expect(calls).toEqual([
      [0, 3, undefined],
      [0, 3, "l2"],
      [0, 3, "l5"]
    ])
  })

  it("awaiting gives the first page only", async () => {
    const { calls, fetchPage } = pages()
    expect(await new ListPromise(fetchPage, { limit: 3 })).toEqual(items.slice(0, 3))
    expect(calls).toEqual([[0, 3]])
  })

  it("requests nothing until awaited or iterated", () => {
    const { calls, fetchPage } = pages()
    void new ListPromise(fetchPage, { limit: 3 })
    expect(calls).toEqual([])
  })

  it("iterates every page until a short one, reusing an awaited first page", async () => {
    const { calls, fetchPage } = pages()
    const list = new ListPromise(fetchPage, { limit: 3 })
    await list
    const seen: Array<string> = []
    for await (const item of list) seen.push(item.id)
    expect(seen).toEqual(items.map((i) => i.id))
    expect(calls).toEqual([
      [0, 3],
      [3, 3],
      [6, 3]
    ])
  })

  it("stops after an empty page when the total is a multiple of the page size", async () => {
    const { calls, fetchPage } = pages()
    expect((await new ListPromise(fetchPage, { limit: 7 }).toArray()).length).toBe(7)
    expect(calls).toEqual([
      [0, 7],
      [7, 7]
    ])
  })

  it("toArray stops at its limit without fetching further pages", async () => {
    const { calls, fetchPage } = pages()
    expect((await new ListPromise(fetchPage, { limit: 3 }).toArray({ limit: 4 })).map((i) => i.id)).toEqual([
      "l0",
      "l1",
      "l2",
      "l3"
    ])
    expect(calls.length).toBe(2)
  })

  it("skips an item pushed to a later page by one created meanwhile (newest-first lists)", async () => {
    let created = false
    const list = new ListPromise(
      async (offset, limit) => {
        const current = created ? [{ id: "nuevo" }, ...items] : items
        created = true
        return current.slice(offset, offset + limit)
      },
      { limit: 3 }
    )
    const ids = (await list.toArray()).map((i) => i.id)
    expect(ids).toEqual(items.map((i) => i.id))
  })

  it("clamps the page size to the API's 1..200", async () => {
    const { calls, fetchPage } = pages()
    await new ListPromise(fetchPage, { limit: 1000 })
    await new ListPromise(fetchPage, {})
    expect(calls).toEqual([
      [0, 200],
      [0, 50]
    ])
  })

  it("passes a first-page failure to await and to iteration", async () => {
    const list = new ListPromise(async () => {
      throw new Error("caído")
    })
    await expect(list).rejects.toThrow("caído")
    await expect(list.toArray()).rejects.toThrow("caído")
  })
})
