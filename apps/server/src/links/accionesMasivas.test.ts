/**
 * The portal's bulk actions against the real server: 5,000 links chosen by a filter and
 * cancelled by one durable job while payments race on some of them (none ends both paid and
 * cancelled, and the summary adds up), an export to CSV, more than 5,000 refused, a key and a
 * stranger refused, the audit log, each link's last notice resent, and an action that resumes
 * on a restarted server.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  bulkMerchant,
  closeBulkRig,
  PASSWORD,
  pagadoNotices,
  simulatePaid,
  startBulkRig
} from "../../test/bulkFixture.js"
import { openPage, PAYER } from "../../test/checkoutHarness.js"
import { call, startServer, type TestServer } from "../../test/harness.js"
import { signInOwner } from "../../test/ownerSession.js"
import type { Receiver } from "../../test/webhooksReceiver.js"

let server: TestServer
let db: Pg.Client
let receiver: Receiver

beforeAll(async () => {
  ;({ server, db, receiver } = await startBulkRig())
})
afterAll(() => closeBulkRig({ server, db, receiver }))

const merchant = () => bulkMerchant(server)

/** `n` links of the merchant made through batches of 500, concept `concepto`. */
const links = async (key: string, n: number, concepto: string) => {
  const ids: Array<string> = []
  for (let start = 0; start < n; start += 500) {
    const count = Math.min(500, n - start)
    const lote = await call(server.url, "POST", "/switch/v1/lotes", {
      key,
      body: { items: Array.from({ length: count }, (_, i) => ({ monto: 10 + ((start + i) % 50), concepto })) }
    })
    expect(lote.status).toBe(201)
    ids.push(...lote.body.items.map((item: { link_id: string }) => item.link_id))
  }
  return ids
}

const untilDone = async (base: string, headers: Record<string, string>, id: string) => {
  for (let i = 0; i < 600; i++) {
    const a = await call(base, "GET", `/switch/v1/acciones-masivas/${id}`, { headers })
    expect(a.status).toBe(200)
    if (a.body.estado === "terminada") return a.body
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error("the bulk action did not end")
}

describe("bulk actions", () => {
  it("cancels 5,000 links chosen by filter while payments race on some: none paid and cancelled, counts add up", async () => {
    const { key, headers } = await merchant()
    const ids = await links(key, 5000, "masiva")
    await links(key, 3, "otra")
    // Payers on 60 of them, their pages open before the action is made.
    const raced = ids.filter((_, i) => i % 83 === 0).slice(0, 60)
    const pages = await Promise.all(raced.map((id) => openPage(server.url, id)))

    const made = await call(server.url, "POST", "/switch/v1/acciones-masivas", {
      headers,
      body: { accion: "cancelar", filtros: { q: "masiva", estado: "pendiente" } }
    })
    expect(made.status).toBe(202)
    expect(made.body).toMatchObject({ accion: "cancelar", estado: "en_cola", total: 5000, procesados: 0 })
    const payments = await Promise.all(
      pages.map((page) => page.post("/pagar", { ...PAYER, otp: "12345678" }))
    )
    const done = await untilDone(server.url, headers, made.body.id)

    const skipped = Object.values(done.omitidos as Record<string, number>).reduce((a, b) => a + b, 0)
    expect(done.procesados).toBe(5000)
    expect(done.hechos + skipped).toBe(5000)
    const states = (
      await db.query("select estado, count(*)::int as n from links where id = any($1) group by estado", [ids])
    ).rows as Array<{ estado: string; n: number }>
    const count = (estado: string) => states.find((s) => s.estado === estado)?.n ?? 0
    expect(count("cancelado")).toBe(done.hechos)
    // Skipped: the links a payment had taken when their part ran (it may have been still
    // cobrando or procesando then); each of them is paid now.
    expect(count("pagado")).toBe(skipped)
    for (const motivo of Object.keys(done.omitidos))
      expect(["pagado", "cobrando", "procesando"]).toContain(motivo)
    expect(count("pagado") + count("cancelado")).toBe(5000)
    // Each raced payment either paid its link or was refused because it was cancelled first.
    const paid = payments.filter((p) => p.status === 200 && p.body.estado === "pagado").length
    expect(paid).toBe(count("pagado"))
    // Never both: no cancelled link has a payment, and every paid link has exactly one.
    const both = await db.query(
      `select count(*)::int as n from links l where l.id = any($1) and l.estado = 'cancelado'
         and (l.paid_at is not null or l.txn_id is not null)`,
      [ids]
    )
    expect(both.rows[0].n).toBe(0)
    // The other links, outside the filter, are untouched.
    const others = await db.query(
      "select estado from links where concepto = 'otra' and comercio_id in (select comercio_id from links where id = $1)",
      [ids[0]]
    )
    expect(others.rows.map((r) => r.estado)).toEqual(["pendiente", "pendiente", "pendiente"])

    // Written to the owner's audit log: the request, and the job's end.
    const log = await call(server.url, "GET", "/switch/v1/actividad?limit=200", { headers })
    const acciones = (log.body as Array<{ accion: string; objeto: string | null }>).map(
      (e) => `${e.accion} ${e.objeto}`
    )
    expect(acciones).toContain("POST /switch/v1/acciones-masivas")
    expect(acciones).toContain(`accion_masiva_terminada /switch/v1/acciones-masivas/${made.body.id}`)

    // Exporting the paid ones: a CSV of exactly them.
    const exp = await call(server.url, "POST", "/switch/v1/acciones-masivas", {
      headers,
      body: { accion: "exportar", filtros: { estado: "pagado" } }
    })
    expect(exp.status).toBe(202)
    const exported = await untilDone(server.url, headers, exp.body.id)
    expect(exported.hechos).toBe(count("pagado"))
    expect(exported.archivo).toBe(`/switch/v1/acciones-masivas/${exp.body.id}/archivo`)
    const file = await fetch(`${server.url}${exported.archivo}`, { headers })
    expect(file.headers.get("content-type")).toContain("text/csv")
    const lines = (await file.text()).trim().split("\r\n")
    expect(lines[0]?.replace(/^\ufeff/, "")).toBe("id,estado,monto,concepto,origen,created_at,paid_at")
    expect(lines).toHaveLength(count("pagado") + 1)
    expect(lines.slice(1).every((l) => l.includes(",pagado,"))).toBe(true)

    // More than 5,000 chosen: refused, nothing made.
    const tooMany = await call(server.url, "POST", "/switch/v1/acciones-masivas", {
      headers,
      body: { accion: "exportar", filtros: {} }
    })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.parametro).toBe("filtros")
    const bad = await call(server.url, "POST", "/switch/v1/acciones-masivas", {
      headers,
      body: { accion: "exportar", filtros: { limit: "5" } }
    })
    expect(bad.status).toBe(400)
  }, 240_000)

  it("resends each chosen link's last notice to the webhooks that receive it; a link with none is skipped", async () => {
    const { key, headers } = await merchant()
    const hook = await call(server.url, "POST", "/switch/v1/webhooks", {
      headers,
      body: { url: `${receiver.url}?masiva`, eventos: ["link.pagado"] }
    })
    expect(hook.status).toBe(201)
    const ids = await links(key, 3, "avisos")
    for (const id of ids.slice(0, 2)) await simulatePaid(server, key, id)
    const notices = (id: string) => pagadoNotices(receiver, id)
    await expect.poll(() => notices(ids[0] ?? "") + notices(ids[1] ?? ""), { timeout: 10_000 }).toBe(2)

    const made = await call(server.url, "POST", "/switch/v1/acciones-masivas", {
      headers,
      body: { accion: "reenviar", filtros: { q: "avisos" } }
    })
    expect(made.status).toBe(202)
    const done = await untilDone(server.url, headers, made.body.id)
    expect(done).toMatchObject({ total: 3, procesados: 3, hechos: 2, omitidos: { sin_aviso: 1 } })
    // Each paid link's link.pagado reached the webhook a second time.
    await expect
      .poll(() => [notices(ids[0] ?? ""), notices(ids[1] ?? "")], { timeout: 10_000 })
      .toEqual([2, 2])
  })

  it("is a session's only (a key is 401) and another merchant's action is 404", async () => {
    const a = await merchant()
    const b = await merchant()
    await links(a.key, 2, "propia")
    expect(
      (
        await call(server.url, "POST", "/switch/v1/acciones-masivas", {
          key: a.key,
          body: { accion: "exportar" }
        })
      ).status
    ).toBe(401)
    const made = await call(server.url, "POST", "/switch/v1/acciones-masivas", {
      headers: a.headers,
      body: { accion: "exportar" }
    })
    expect(made.status).toBe(202)
    await untilDone(server.url, a.headers, made.body.id)
    expect(
      (await call(server.url, "GET", `/switch/v1/acciones-masivas/${made.body.id}`, { headers: b.headers }))
        .status
    ).toBe(404)
    expect(
      (
        await fetch(`${server.url}/switch/v1/acciones-masivas/${made.body.id}/archivo`, {
          headers: b.headers
        })
      ).status
    ).toBe(404)
    expect(
      (await call(server.url, "GET", `/switch/v1/acciones-masivas/${made.body.id}`, { key: a.key })).status
    ).toBe(401)
  })

  it("an action cut by a server stop resumes on the restarted server and ends once", async () => {
    const own = await startServer({ settings: { apiPorMinuto: 100_000 } })
    let again: TestServer | undefined
    try {
      const { codigo, ...who } = await (async () => {
        const codigo = `r${randomUUID().slice(0, 8)}`
        const email = `${codigo}@dueno.example`
        const reg = await call(own.url, "POST", "/switch/v1/comercios/registrar", {
          body: { codigo, nombre: "Reinicio", identificacion: "J-07013380-5", email, password: PASSWORD }
        })
        return { codigo, key: `${codigo}:${reg.body.api_key}`, email }
      })()
      expect(codigo).toBeTruthy()
      for (let i = 0; i < 6; i++)
        await call(own.url, "POST", "/switch/v1/lotes", {
          key: who.key,
          body: { items: Array.from({ length: 500 }, () => ({ monto: 5, concepto: "reinicio" })) }
        })
      const signIn = (base: string) => signInOwner(base, who.email, PASSWORD)
      const made = await call(own.url, "POST", "/switch/v1/acciones-masivas", {
        headers: await signIn(own.url),
        body: { accion: "cancelar" }
      })
      expect(made.status).toBe(202)
      await own.close()
      again = await startServer({ databaseUrl: own.databaseUrl })
      const done = await untilDone(again.url, await signIn(again.url), made.body.id)
      expect(done).toMatchObject({ total: 3000, procesados: 3000, hechos: 3000, omitidos: {} })
      const pg = new Pg.Client({ connectionString: own.databaseUrl })
      await pg.connect()
      try {
        const left = await pg.query("select count(*)::int as n from links where estado <> 'cancelado'")
        expect(left.rows[0].n).toBe(0)
        const ends = await pg.query(
          "select count(*)::int as n from actividad where accion = 'accion_masiva_terminada'"
        )
        expect(ends.rows[0].n).toBe(1)
      } finally {
        await pg.end()
      }
    } finally {
      await again?.close()
    }
  }, 120_000)
})
