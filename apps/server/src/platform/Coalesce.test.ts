import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { coalesce } from "./Coalesce.js"

const turn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * A call's row, and how a statement holding it behaves: `bad` fails every statement it is in,
 * alone or not (nothing commits); `lost` makes a statement for several commit and then lose
 * its answer (a connection cut after the commit), and goes in fine by itself.
 */
type Kind = "ok" | "bad" | "lost"
interface Item {
  readonly id: number
  readonly kind: Kind
}

/** A fake table behind `one`, `many` and `retry`, with the ids it holds and what ran. */
const runner = (options: { max: number; inFlight: number }) => {
  const stored = new Set<number>() // ids inserted; a second insert of one throws
  const log = { batches: [] as Array<number>, peak: 0 }
  let running = 0
  const statement = async <A>(work: () => A): Promise<A> => {
    running++
    log.peak = Math.max(log.peak, running)
    await turn()
    running--
    return work()
  }
  const insert = (item: Item) => {
    if (stored.has(item.id)) throw new Error(`duplicate key ${item.id}`)
    stored.add(item.id)
  }
  const one = (item: Item) =>
    statement(() => {
      if (item.kind === "bad") throw new Error(`bad ${item.id}`)
      insert(item)
      return `row ${item.id}`
    })
  const call = coalesce<Item, string>({
    ...options,
    one,
    retry: async (item) => (stored.has(item.id) ? `row ${item.id}` : one(item)),
    many: (items) =>
      statement(() => {
        log.batches.push(items.length)
        if (items.some((item) => item.kind === "bad")) throw new Error("statement failed")
        for (const item of items) insert(item)
        if (items.some((item) => item.kind === "lost")) throw new Error("connection lost")
        return items.map((item) => `row ${item.id}`)
      })
  })
  return { call, log, stored }
}

const kinds = fc.constantFrom<Kind>("ok", "ok", "ok", "ok", "bad", "lost")

describe("coalesce", () => {
  it("every call gets its own answer, each row is stored once, and at most inFlight statements run", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(kinds, { maxLength: 40 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        async (waves, max, inFlight) => {
          const { call, log, stored } = runner({ max, inFlight })
          const items: Array<Item> = []
          const settled: Array<Promise<PromiseSettledResult<string>>> = []
          for (const wave of waves) {
            // Each wave arrives in one turn of the event loop, while earlier ones may be under way.
            for (const kind of wave) {
              const item = { id: items.length, kind }
              items.push(item)
              settled.push(Promise.allSettled([call(item)]).then(([r]) => r!))
            }
            await turn()
          }
          const results = await Promise.all(settled)
          results.forEach((result, i) => {
            const item = items[i]!
            if (item.kind === "bad") expect(result).toMatchObject({ status: "rejected" })
            else expect(result).toEqual({ status: "fulfilled", value: `row ${item.id}` })
          })
          expect([...stored].sort((a, b) => a - b)).toEqual(
            items.filter((item) => item.kind !== "bad").map((item) => item.id)
          )
          expect(log.peak).toBeLessThanOrEqual(inFlight)
          for (const size of log.batches) {
            expect(size).toBeGreaterThan(1)
            expect(size).toBeLessThanOrEqual(max)
          }
        }
      )
    ))

  it("sends the calls of one turn as one batch, and a lone call by itself", async () => {
    const { call, log } = runner({ max: 100, inFlight: 2 })
    const items = [0, 1, 2].map((id): Item => ({ id, kind: "ok" }))
    expect(await Promise.all(items.map(call))).toEqual(["row 0", "row 1", "row 2"])
    expect(await call({ id: 3, kind: "ok" })).toBe("row 3")
    expect(log.batches).toEqual([3])
  })

  it("holds calls while its statements are under way and sends them together after", async () => {
    const { call, log } = runner({ max: 100, inFlight: 1 })
    const first = call({ id: 0, kind: "ok" })
    await turn() // 0 is now under way by itself
    const rest = [1, 2, 3].map((id) => call({ id, kind: "ok" }))
    await Promise.all([first, ...rest])
    expect(log.batches).toEqual([3])
  })

  it("finds one bad row among 64 in a few statements, not 64", async () => {
    const { call, log } = runner({ max: 256, inFlight: 4 })
    const items = Array.from({ length: 64 }, (_, id): Item => ({ id, kind: id === 37 ? "bad" : "ok" }))
    const results = await Promise.allSettled(items.map(call))
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1)
    // Halving: 64, 32 (holds the bad row) and 32, then 16 + 16, 8 + 8, 4 + 4, 2 + 2, 1 + 1.
    expect(log.batches.length).toBeLessThanOrEqual(2 * Math.log2(64) + 1)
  })
})
