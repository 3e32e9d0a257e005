/** Auto-pagination over the real server's pages: links walk by their `starting_after` cursor. */
import { beforeAll, describe, expect, it } from "vitest"
import { Switch } from "../src/index.js"
import { baseUrl, newMerchant } from "./support.js"

let m: Awaited<ReturnType<typeof newMerchant>>
const created: Array<string> = []
const pageRequests: Array<URL> = []
let sw: Switch

beforeAll(async () => {
  m = await newMerchant("pag")
  for (let i = 0; i < 7; i++)
    created.push((await m.sw.links.create({ monto: 10 + i, concepto: `pagina ${i}` })).id)
  sw = new Switch({
    key: m.key,
    baseUrl: baseUrl(),
    fetch: (input, init) => {
      const url = new URL(input)
      if (init.method === "GET" && url.pathname === "/switch/v1/links") pageRequests.push(url)
      return fetch(input, init)
    }
  })
})

describe("auto-pagination", () => {
  it("for await walks three pages of 3, 3 and 1 links, newest first, each after the last id", async () => {
    pageRequests.length = 0
    const ids: Array<string> = []
    for await (const link of sw.links.list({ limit: 3 })) ids.push(link.id)
    const newest = [...created].reverse()
    expect(ids).toEqual(newest)
    expect(
      pageRequests.map((u) => [u.searchParams.get("starting_after"), u.searchParams.get("limit")])
    ).toEqual([
      [null, "3"],
      [newest[2], "3"],
      [newest[5], "3"]
    ])
  })

  it("awaiting the list gives only the first page", async () => {
    pageRequests.length = 0
    const page = await sw.links.list({ limit: 3 })
    expect(page.map((l) => l.id)).toEqual([...created].reverse().slice(0, 3))
    expect(pageRequests).toHaveLength(1)
  })

  it("toArray({ limit }) stops at the limit", async () => {
    pageRequests.length = 0
    const some = await sw.links.list({ limit: 3 }).toArray({ limit: 5 })
    expect(some.map((l) => l.id)).toEqual([...created].reverse().slice(0, 5))
    expect(pageRequests).toHaveLength(2)
  })

  it("filters apply to every page: only paid links with estado 'pagado'", async () => {
    await m.sw.links.simulate(created[1]!, "pagado")
    await m.sw.links.simulate(created[4]!, "pagado")
    const paid: Array<string> = []
    for await (const link of sw.links.list({ estado: "pagado", limit: 1 })) paid.push(link.id)
    expect(paid.sort()).toEqual([created[1]!, created[4]!].sort())
  })
})
