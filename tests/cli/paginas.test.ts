/**
 * Every list command whose route takes the `starting_after` cursor walks it: the built `switch`
 * binary runs against the real server through a pass-through proxy that records each request,
 * on a merchant with more rows of each kind than one page of 200 holds. `--all` (and a
 * `--limit` over 200) asks the first page plainly, then each next one after the previous page's
 * last id, and answers exactly what walking the route by `offset` answers.
 */

import { createServer, request, type Server } from "node:http"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Stack, startStack } from "../support/stack.js"
import { makeCli } from "./support.js"

/** Rows of each kind: two full pages of 200 and a part of a third. */
const SEEDED = 450

let stack: Stack
let cli: ReturnType<typeof makeCli>
let proxy: Server
const seen: Array<URL> = []

beforeAll(async () => {
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000" })
  const target = new URL(stack.url)
  proxy = createServer((req, res) => {
    seen.push(new URL(req.url ?? "/", stack.url))
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on("error", () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", () => done()))
  const address = proxy.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  cli = makeCli(`http://127.0.0.1:${port}`)
  expect((await cli.run(["login", "--key", stack.demoKey])).code).toBe(0)

  // The demo merchant's test mode gets SEEDED rows of each kind, a second apart.
  const db = new pg.Client({
    connectionString: `postgres://switch:switch@127.0.0.1:${stack.env.SWITCH_PG_PORT}/switch`
  })
  await db.connect()
  try {
    const comercio = (await db.query("select id from comercios where codigo = 'demo'")).rows[0].id
    const each = `from generate_series(1, ${SEEDED}) i`
    await db.query(
      `insert into links (id, comercio_id, mode, monto, concepto, busqueda, created_at, expires_at)
       select gen_random_uuid(), $1, 'test', 100 + i, 'Pagina ' || i, 'pagina ' || i,
         now() - make_interval(secs => i), now() + interval '30 days' ${each}`,
      [comercio]
    )
    await db.query(
      `insert into clientes (id, comercio_id, mode, huella, created_at)
       select gen_random_uuid(), $1, 'test', 'huella-pagina-' || i, now() - make_interval(secs => i)
       ${each}`,
      [comercio]
    )
    await db.query(
      `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, created_at, liquidada_at)
       select gen_random_uuid(), $1, 'test', 'liquidacion', 'LIQUIDADA', 100 + i,
         now() - make_interval(secs => i), now() - make_interval(secs => i) ${each}`,
      [comercio]
    )
    await db.query(
      `insert into lotes (id, comercio_id, mode, nombre, expires_at, created_at)
       select gen_random_uuid(), $1, 'test', 'Lote ' || i, now() + interval '30 days',
         now() - make_interval(secs => i) ${each}`,
      [comercio]
    )
    await db.query(
      `insert into eventos (id, comercio_id, mode, evento, data, created_at)
       select gen_random_uuid(), $1, 'test', 'webhook.test', '{}'::jsonb, now() - make_interval(secs => i)
       ${each}`,
      [comercio]
    )
  } finally {
    await db.end()
  }
}, 240_000)

afterAll(async () => {
  proxy?.close()
  cli?.cleanup()
  await stack?.stop()
})

/** Every id of a route, walked by `offset` with the demo key, straight at the server. */
const byOffset = async (path: string): Promise<Array<string>> => {
  const ids: Array<string> = []
  for (let offset = 0; ; offset += 200) {
    const answer = await fetch(`${stack.url}${path}?limit=200&offset=${offset}`, {
      headers: { "x-switch-key": stack.demoKey }
    })
    expect(answer.status, path).toBe(200)
    const page = (await answer.json()) as Array<{ id: string }>
    ids.push(...page.map((row) => row.id))
    if (page.length < 200) return ids
  }
}

const COMMANDS: ReadonlyArray<readonly [command: ReadonlyArray<string>, path: string]> = [
  [["links", "list"], "/switch/v1/links"],
  [["clientes", "list"], "/switch/v1/clientes"],
  [["transacciones", "list"], "/switch/v1/transacciones"],
  [["liquidaciones", "list"], "/switch/v1/liquidaciones"],
  [["lotes", "list"], "/switch/v1/lotes"],
  [["events", "list"], "/switch/v1/eventos"]
]

describe("list commands walk the cursor", () => {
  it.each(COMMANDS)("%s --all asks each page after the last id of the one before", async (command, path) => {
    const expected = await byOffset(path)
    expect(expected.length).toBeGreaterThanOrEqual(SEEDED)
    seen.length = 0
    const rows = (await cli.json([...command, "--all"])) as Array<{ id: string }>
    const ids = rows.map((row) => row.id)
    expect(ids).toEqual(expected)

    const pages = seen.filter((url) => url.pathname === path)
    expect(pages.length).toBe(Math.floor(expected.length / 200) + 1)
    expect(pages[0]?.searchParams.get("starting_after")).toBeNull()
    pages.forEach((url, n) => {
      expect(url.searchParams.get("limit")).toBe("200")
      if (n > 0) {
        expect(url.searchParams.get("starting_after")).toBe(ids[n * 200 - 1])
        expect(url.searchParams.get("offset") ?? "0").toBe("0")
      }
    })
  })

  it.each(COMMANDS)("%s --limit 250 walks two pages by the cursor and stops", async (command, path) => {
    const expected = (await byOffset(path)).slice(0, 250)
    seen.length = 0
    const rows = (await cli.json([...command, "--limit", "250"])) as Array<{ id: string }>
    expect(rows.map((row) => row.id)).toEqual(expected)
    const pages = seen.filter((url) => url.pathname === path)
    expect(pages.map((url) => url.searchParams.get("starting_after"))).toEqual([null, expected[199]])
  })

  it("liquidaciones list shows a table, filters by estado and refuses an unknown one (exit 2)", async () => {
    const table = await cli.run(["liquidaciones", "list", "--limit", "3"])
    expect(table.code).toBe(0)
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+ESTADO\s+COBRADO\s+NETO/)
    expect(table.stdout).toContain("LIQUIDADA")
    expect(await cli.json(["liquidaciones", "list", "--estado", "revision"])).toEqual([])
    const bad = await cli.run(["liquidaciones", "list", "--estado", "nada"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("PENDIENTE")
  })

  it("events list shows a table and filters by evento", async () => {
    const table = await cli.run(["events", "list", "--limit", "2"])
    expect(table.code).toBe(0)
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+EVENTO\s+CREADO/)
    expect(table.stdout).toContain("webhook.test")
    expect(await cli.json(["events", "list", "--evento", "link.pagado"])).toEqual([])
  })
})
