/**
 * A bulk resend (`reenviar`) cut between sending a part's notices and committing its progress:
 * the job runs the part again, and still each link's last notice goes out once for the action.
 * The cut is a trigger that refuses the part's first progress update, the way a crash after the
 * resends would leave it; graphile-worker then runs the job again.
 */
import type Pg from "pg"
import { afterAll, beforeAll, expect, it } from "vitest"
import {
  bulkMerchant,
  closeBulkRig,
  pagadoNotices,
  simulatePaid,
  startBulkRig
} from "../../test/bulkFixture.js"
import { call, type TestServer } from "../../test/harness.js"
import type { Receiver } from "../../test/webhooksReceiver.js"

let server: TestServer
let db: Pg.Client
let receiver: Receiver

beforeAll(async () => {
  ;({ server, db, receiver } = await startBulkRig())
})
afterAll(() => closeBulkRig({ server, db, receiver }))

it("a part replayed after a cut between its resends and its progress delivers no notice twice", async () => {
  const { key, headers } = await bulkMerchant(server)
  expect(
    (
      await call(server.url, "POST", "/switch/v1/webhooks", {
        headers,
        body: { url: `${receiver.url}?replay`, eventos: ["link.pagado"] }
      })
    ).status
  ).toBe(201)
  const lote = await call(server.url, "POST", "/switch/v1/lotes", {
    key,
    body: { items: Array.from({ length: 3 }, (_, i) => ({ monto: 10 + i, concepto: "repetido" })) }
  })
  expect(lote.status).toBe(201)
  const ids: Array<string> = lote.body.items.map((item: { link_id: string }) => item.link_id)
  for (const id of ids) await simulatePaid(server, key, id)
  const notices = (id: string) => pagadoNotices(receiver, id)
  await expect.poll(() => ids.map(notices), { timeout: 10_000 }).toEqual([1, 1, 1])

  // The cut: the first progress update of a part fails after its notices were resent (a
  // sequence, not a row, counts it: a sequence is not rolled back with the transaction).
  await db.query(`
    create sequence corte_reenvio;
    create function corte_reenvio() returns trigger language plpgsql as $$
    begin
      if new.procesados > old.procesados and nextval('corte_reenvio') = 1 then
        raise exception 'corte simulado entre los avisos y el progreso';
      end if;
      return new;
    end $$;
    create trigger corte_reenvio before update on acciones_masivas
      for each row execute function corte_reenvio();`)

  const accion = await call(server.url, "POST", "/switch/v1/acciones-masivas", {
    headers,
    body: { accion: "reenviar", filtros: { q: "repetido" } }
  })
  expect(accion.status).toBe(202)
  let done: any
  for (let i = 0; i < 300 && done?.estado !== "terminada"; i++) {
    await new Promise((r) => setTimeout(r, 100))
    done = (await call(server.url, "GET", `/switch/v1/acciones-masivas/${accion.body.id}`, { headers })).body
  }
  expect(done).toMatchObject({ estado: "terminada", total: 3, procesados: 3, hechos: 3, omitidos: {} })
  // The part was cut once and ran again.
  expect(Number((await db.query("select last_value from corte_reenvio")).rows[0].last_value)).toBeGreaterThan(
    1
  )
  const failed = await db.query(
    "select count(*)::int as n from graphile_worker.jobs where task_identifier = 'accion_masiva'"
  )
  expect(failed.rows[0].n).toBe(0)

  // Each link's notice: the first, then exactly one resend for the action, even after waiting.
  await expect.poll(() => ids.map(notices), { timeout: 10_000 }).toEqual([2, 2, 2])
  await new Promise((r) => setTimeout(r, 3000))
  expect(ids.map(notices)).toEqual([2, 2, 2])
  const attempts = await db.query(
    `select e.intentos from webhook_entregas e join eventos v on v.id = e.evento_id
     where v.data->>'link_id' = any($1) order by e.intentos`,
    [ids]
  )
  expect(attempts.rows.map((r) => r.intentos)).toEqual([2, 2, 2])
}, 60_000)
