/**
 * The links repository on a real database: a state change the LinkMachine never makes dies
 * before writing; a machine move whose `from` no longer holds writes nothing; the expiry and
 * suspension conditions keep an expired link or a suspended merchant's link from being paid.
 */
import { randomUUID } from "node:crypto"
import type { PgClient } from "@effect/sql-pg"
import { LinkMachine } from "@switch/core"
import { Cause, Effect, Either, Exit, Layer, ManagedRuntime, Option } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshDatabase } from "../../test/harness.js"
import * as LinksRepo from "./LinksRepo.js"
import { PgLive } from "./Sql.js"

let db: Pg.Client
let runtime: ManagedRuntime.ManagedRuntime<PgClient.PgClient, never>

beforeAll(async () => {
  const url = await freshDatabase()
  db = new Pg.Client({ connectionString: url })
  await db.connect()
  runtime = ManagedRuntime.make(PgLive(url, { maxConnections: 4 }).pipe(Layer.orDie))
})

afterAll(async () => {
  await db.end()
  await runtime.dispose()
})

const merchant = async (estado = "activo") => {
  const id = randomUUID()
  await db.query(
    `insert into comercios (id, codigo, nombre, identificacion, email, estado)
     values ($1, $2, 'Tienda', 'J123', 'a@b.ve', $3)`,
    [id, `c${id.slice(0, 8)}`, estado]
  )
  return id
}

const link = async (comercioId: string, estado = "pendiente", expiresAt: Date | null = null) => {
  const id = randomUUID()
  await db.query(
    `insert into links (id, comercio_id, mode, estado, monto, concepto, expires_at)
     values ($1, $2, 'test', $3, 1000, 'Prueba', $4)`,
    [id, comercioId, estado, expiresAt]
  )
  return id
}

const row = async (id: string) =>
  (await db.query("select estado, metodo, propina, txn_id from links where id = $1", [id])).rows[0]

const hour = 3_600_000

describe("LinksRepo", () => {
  it("refuses a move the machine never makes, before writing anything", async () => {
    const comercioId = await merchant()
    const paid = await link(comercioId, "pagado")
    const before = await row(paid)
    for (const [from, to] of [
      ["pagado", "pendiente"],
      ["cancelado", "pendiente"],
      ["revision", "procesando"],
      ["pendiente", "procesando"]
    ] as const) {
      const exit = await runtime.runPromiseExit(
        LinksRepo.reopen(paid, { from, to } as LinksRepo.Move).pipe(Effect.asVoid)
      )
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        const defect = Option.getOrThrow(Cause.dieOption(exit.cause))
        expect(defect).toBeInstanceOf(LinksRepo.MoveRefused)
      }
    }
    // Even with `where estado = from` matching, the refused move never reaches the table.
    const open = await link(comercioId)
    const exit = await runtime.runPromiseExit(
      LinksRepo.pay({
        id: open,
        comercioId,
        t: { from: "pendiente", to: "revision" },
        metodo: "debito",
        txnId: randomUUID(),
        referencia: "R",
        paidAt: new Date()
      })
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(await row(open)).toMatchObject({ estado: "pendiente", metodo: null, txn_id: null })
    expect(await row(paid)).toEqual(before)
  })

  it("writes a machine move only while the link is still in its `from` state", async () => {
    const comercioId = await merchant()
    const id = await link(comercioId)
    const cancel = Either.getOrThrow(
      LinkMachine.transition(snapshotOf("pendiente"), LinkMachine.LinkEvent.Cancelar(), new Date())
    )
    await db.query("update links set estado = 'cobrando', metodo = 'debito' where id = $1", [id])
    expect(await runtime.runPromise(LinksRepo.cancel(id, cancel, new Date()))).toEqual([])
    expect((await row(id)).estado).toBe("cobrando")

    const accepted = Either.getOrThrow(
      LinkMachine.transition(
        { ...snapshotOf("cobrando"), metodo: "debito" },
        LinkMachine.LinkEvent.BancoAcepta(),
        new Date()
      )
    )
    expect(await runtime.runPromise(LinksRepo.waitOnBank(id, accepted))).toEqual([{ id }])
    // The same answer again: the link is `procesando` now, so it moves no more.
    expect(await runtime.runPromise(LinksRepo.waitOnBank(id, accepted))).toEqual([])
    expect((await row(id)).estado).toBe("procesando")
  })

  it("starts a debit only on an unexpired link of a merchant not suspended", async () => {
    const at = new Date()
    const start = { from: "pendiente", to: "cobrando" } as const
    const debit = (id: string, comercioId: string) =>
      runtime.runPromise(
        LinksRepo.startDebit<{ id: string }>({
          id,
          comercioId,
          t: start,
          propina: 50,
          altaCliente: true,
          nombre: "Ana",
          at,
          returning: "id"
        })
      )
    const active = await merchant()
    const expired = await link(active, "pendiente", new Date(at.getTime() - hour))
    expect(await debit(expired, active)).toEqual([])
    const suspended = await merchant("suspendido")
    const ofSuspended = await link(suspended, "pendiente", new Date(at.getTime() + hour))
    expect(await debit(ofSuspended, suspended)).toEqual([])
    const open = await link(active, "pendiente", new Date(at.getTime() + hour))
    expect(await debit(open, active)).toEqual([{ id: open }])
    expect(await row(open)).toMatchObject({ estado: "cobrando", metodo: "debito", propina: "50" })
    expect(await row(expired)).toMatchObject({ estado: "pendiente", metodo: null })
  })

  it("expires exactly the open links past their expiry", async () => {
    const at = new Date()
    const comercioId = await merchant()
    const due = await link(comercioId, "pendiente", new Date(at.getTime() - 1))
    const later = await link(comercioId, "pendiente", new Date(at.getTime() + hour))
    const never = await link(comercioId, "pendiente", null)
    const paying = await link(comercioId, "cobrando", new Date(at.getTime() - hour))
    const moved = await runtime.runPromise(LinksRepo.expireDue(at))
    expect(moved.map((r) => r.id)).toContain(due)
    expect(moved.map((r) => r.id)).not.toContain(later)
    const states = await Promise.all([due, later, never, paying].map(async (id) => (await row(id)).estado))
    expect(states).toEqual(["expirado", "pendiente", "pendiente", "cobrando"])
  })
})

const snapshotOf = (estado: LinkMachine.LinkState): LinkMachine.LinkSnapshot => ({
  estado,
  mode: "test",
  expiresAt: null,
  metodo: null,
  failureUrl: null,
  successUrl: null,
  comercioSuspendido: false,
  liquidacionInmediata: false,
  tarjetaHabilitada: false,
  tieneSplit: false
})
