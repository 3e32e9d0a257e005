/**
 * Retention of the portal's bulk actions (platform/Retention.ts, the server's README): an
 * export's CSV is dropped 30 days after the action ended while its summary stays; an action is
 * deleted 400 days after it ended; one still running is never touched. Housekeeping's own round
 * (`pruneGrowing`) on a real database, read back through the portal's routes.
 */
import { randomUUID } from "node:crypto"
import { ManagedRuntime } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, expect, it } from "vitest"
import { call, startServer, type TestServer } from "../../test/harness.js"
import { ACCIONES_ARCHIVO_DAYS, ACCIONES_DAYS, pruneGrowing } from "../platform/Retention.js"
import { PgLive } from "../platform/Sql.js"

let server: TestServer
let db: Pg.Client

beforeAll(async () => {
  // The server's own housekeeping would race this test's round for the same old rows.
  server = await startServer({ settings: { housekeepingSeconds: 86_400 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const PASSWORD = "una-clave-larga-1"

it("drops an export's CSV after 30 days keeping its summary, deletes an action after 400 days, never a running one", async () => {
  const codigo = `m${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  expect(
    (
      await call(server.url, "POST", "/switch/v1/comercios/registrar", {
        body: {
          codigo,
          nombre: `Tienda ${codigo}`,
          identificacion: "J-07013380-5",
          email,
          password: PASSWORD
        }
      })
    ).status
  ).toBe(201)
  const signIn = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  const headers = {
    cookie: (signIn.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    "x-csrf-token": ((await signIn.json()) as { csrf_token: string }).csrf_token
  }
  const comercio = (await db.query("select id from comercios where codigo = $1", [codigo])).rows[0].id
  /** An action of the merchant's that ended (or, with `estado` en_curso, started) `daysAgo` days ago. */
  const accion = async (accion: string, estado: string, daysAgo: number, csv: string | null) => {
    const id = randomUUID()
    await db.query(
      `insert into acciones_masivas (id, comercio_id, mode, email, accion, filtros, ids, estado, procesados, hechos,
         csv, created_at, terminada_at)
       values ($1, $2, 'test', $3, $4, '{}', array[gen_random_uuid()], $5, 1, 1, $6,
         now() - make_interval(days => $7), case when $5 = 'terminada' then now() - make_interval(days => $7) end)`,
      [id, comercio, email, accion, estado, csv, daysAgo]
    )
    return id
  }
  const oldExport = await accion("exportar", "terminada", ACCIONES_ARCHIVO_DAYS + 1, "a,pagado\r\n")
  const recentExport = await accion("exportar", "terminada", ACCIONES_ARCHIVO_DAYS - 1, "b,pagado\r\n")
  const ancient = await accion("cancelar", "terminada", ACCIONES_DAYS + 1, null)
  const running = await accion("exportar", "en_curso", ACCIONES_DAYS + 100, "c,pagado\r\n")

  const runtime = ManagedRuntime.make(PgLive(server.databaseUrl))
  try {
    // The server's first housekeeping round may take some of them first: the rows left tell.
    const pruned = await runtime.runPromise(pruneGrowing)
    expect(pruned.accionesArchivos).toBeLessThanOrEqual(1)
    expect(pruned.acciones).toBeLessThanOrEqual(1)
  } finally {
    await runtime.dispose()
  }

  const rows = async () =>
    Object.fromEntries(
      (await db.query("select id, csv from acciones_masivas where comercio_id = $1", [comercio])).rows.map(
        (r) => [r.id, r.csv]
      )
    )
  expect(await rows()).toEqual({
    [oldExport]: null,
    [recentExport]: "b,pagado\r\n",
    [running]: "c,pagado\r\n"
  })

  const get = (id: string) => call(server.url, "GET", `/switch/v1/acciones-masivas/${id}`, { headers })
  const file = (id: string) => fetch(`${server.url}/switch/v1/acciones-masivas/${id}/archivo`, { headers })
  // The old export: its summary stays, its file is gone.
  const old = await get(oldExport)
  expect(old.status).toBe(200)
  expect(old.body).toMatchObject({ estado: "terminada", total: 1, procesados: 1, hechos: 1, archivo: null })
  const gone = await file(oldExport)
  expect(gone.status).toBe(404)
  expect(((await gone.json()) as { detail: string }).detail).toContain("30 días")
  // The recent one still downloads.
  expect((await get(recentExport)).body.archivo).toBe(`/switch/v1/acciones-masivas/${recentExport}/archivo`)
  const kept = await file(recentExport)
  expect(kept.status).toBe(200)
  expect(await kept.text()).toContain("b,pagado")
  expect((await get(ancient)).status).toBe(404)
  expect((await get(running)).body.estado).toBe("en_curso")
})
