/**
 * Queue source: split parts `en_revision` (SPEC "Split states": "A person resolves a part in
 * review by paying it, marking it paid with the bank reference, or closing it without paying
 * (with a note)"). A part is `(link, indice)`: the link's stored `reparto.beneficiarios[indice]`.
 *
 * - pay: through the bank port with four eyes (below `SWITCH_CUATRO_OJOS_DESDE` one operator is
 *   enough). The request row in `pagos_reparto` (its id is the bank order's id) is committed as
 *   `enviado` before the order goes out, so a crash, a retry or a second click never sends a
 *   second order: while one is `enviado` only asking the bank about it is allowed.
 * - mark paid with the bank's reference, or close without paying with a note (`descartado`), with
 *   four eyes from the same amount (Cola.ts `manuales`); while one waits the part is not paid.
 * - ask the bank now about the part's order.
 *
 * Before an operator's payment is sent (when asked for, and again when the second operator
 * confirms it) the account's approval (still on the merchant's list), the security controls
 * (`cuentas_bloqueadas`) and the daily cap per beneficiary are checked again, as before an
 * automatic one (SPEC "Split rules"): a failing check is `409` `split_cuenta_no_preaprobada` or
 * `split_beneficiario_bloqueado` with the reason, nothing is sent, a payment waiting for its
 * confirmation is void (`fallido`), and the part stays in review with that reason (audited
 * `reparto.pagar_rechazado`).
 *
 * A paid part is recorded as its own `reparto` transaction; when no part is left in review the
 * split is `repartido` (or `cerrado` when some part was closed unpaid) and `link.acreditado` is
 * sent once (its dedupe is per link) with the `reparto`. Every action writes its audit row in the
 * action's transaction.
 *
 * A split a refund stopped before it paid anyone (`repartos_detenidos`, SPEC: "If a refund happens
 * before the split is paid, the split stops and goes to review") is listed with that reason and is
 * never paid through the bank: "pagar" and its confirmation answer `409 reparto_detenido` (both
 * take the link's row lock the refund takes); it is closed without paying, or marked paid when the
 * money went out some other way.
 */
import { randomUUID } from "node:crypto"
import { HttpRouter, type HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import type { Mode } from "@switch/api"
import { type Instrument, Money, type Ports, Split } from "@switch/core"
import { Effect, Either, Schema } from "effect"
import { Settings } from "../../Config.js"
import { json } from "../../http/Respond.js"
import { Banks } from "../../platform/bank/Banks.js"
import * as Outbox from "../../platform/Outbox.js"
import { encolarLiquidacion } from "../../platform/Settlements.js"
import * as SplitControles from "../../platform/SplitControles.js"
import { decodeBody, OperadorError, OperadorService, type OperadorSession } from "../OperadorService.js"
import {
  bankView,
  type Contexto,
  type Fuente,
  guardarRespuesta,
  type Item,
  manuales,
  type Ruta,
  sinPendiente
} from "./Cola.js"
import { proximaConsulta, trasElEnvio } from "./Liquidaciones.js"

export const TIPO = "reparto"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The key of a part's bank answers and audit rows. */
export const parteId = (linkId: string, indice: number) => `${linkId}:${indice}`

const ORDENANTE: Ports.Party = {
  tipo: "cuenta",
  valor: "01020000000000000000",
  banco: "0102",
  identificacion: "J000000000",
  tipo_doc: "J",
  nombre: "Switch liquidaciones"
}

const bs = (cents: number) => Money.toNumber(Money.Cents(cents))

const listar: Fuente["listar"] = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{
    link_id: string
    comercio: string
    mode: Mode
    indice: number
    monto: number
    nombre: string
    desde: Date
    detenido: boolean
    razon: string | null
  }>`
    select l.id::text as link_id, c.codigo as comercio, l.mode, (b.n - 1)::int as indice,
      (b.value->>'monto')::bigint as monto, b.value->>'nombre' as nombre, coalesce(l.paid_at, l.created_at) as desde,
      exists (select 1 from repartos_detenidos d where d.link_id = l.id) as detenido,
      (select m.motivo from repartos_motivos m where m.link_id = l.id and m.indice = b.n - 1) as razon
    from links l join comercios c on c.id = l.comercio_id,
      jsonb_array_elements(l.reparto->'beneficiarios') with ordinality as b(value, n)
    where l.reparto->>'estado' = 'en_revision' and b.value->>'estado' = 'en_revision'
    order by desde asc limit 500`
  return rows.map(
    (r): Item => ({
      tipo: TIPO,
      id: parteId(r.link_id, r.indice),
      link_id: r.link_id,
      comercio: r.comercio,
      mode: r.mode,
      monto: bs(r.monto),
      motivo: r.detenido ? "reparto detenido por un reembolso" : (r.razon ?? "parte del reparto en revisión"),
      con_reparto: true,
      desde: r.desde,
      extra: { indice: r.indice, beneficiario: r.nombre, detenido: r.detenido },
      respuestas: { objeto_tipo: TIPO, objeto_id: parteId(r.link_id, r.indice) }
    })
  )
}).pipe(Effect.orDie)

interface LinkRow {
  readonly id: string
  readonly comercio_id: string
  readonly mode: Mode
  readonly split: ReadonlyArray<unknown> | null
  readonly reparto: Split.RepartoView | null
}

const MarcarPagadaBody = Schema.Struct({
  referencia_banco: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{4,40}$/)),
  nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
})
const CerrarBody = Schema.Struct({
  nota: Schema.String.pipe(Schema.trimmed(), Schema.minLength(3), Schema.maxLength(2000))
})
const NotaBody = Schema.Struct({ nota: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))) })

const rutas = (ctx: Contexto) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const banks = yield* Banks
    const settings = yield* Settings
    const operadores = yield* OperadorService
    const umbralCentimos = Math.round((settings.cuatroOjosDesde ?? 0) * 100)

    const parte = Effect.flatMap(HttpRouter.params, (params) => {
      const linkId = params.link_id ?? ""
      const indice = Number(params.indice ?? "")
      return UUID.test(linkId) && /^[0-4]$/.test(params.indice ?? "")
        ? Effect.succeed({ linkId, indice })
        : Effect.fail(OperadorError.notFound())
    })

    /** The link locked for this transaction, its part `indice` in review. */
    const lock = (linkId: string, indice: number) =>
      Effect.gen(function* () {
        const [link] = yield* sql<LinkRow>`
          select id::text as id, comercio_id::text as comercio_id, mode, split, reparto
          from links where id = ${linkId} for update`
        const part = link?.reparto?.beneficiarios[indice]
        if (link === undefined || link.reparto === null || part === undefined)
          return yield* Effect.fail(OperadorError.notFound())
        if (part.estado !== "en_revision")
          return yield* Effect.fail(
            OperadorError.conflict(
              "no_en_revision",
              `La parte del reparto está ${part.estado}, no en revisión.`
            )
          )
        return { link, reparto: link.reparto, part }
      })

    const view = (linkId: string, indice: number, reparto: Split.RepartoView) => {
      const shown = Split.repartoJson(reparto) as { readonly beneficiarios: ReadonlyArray<unknown> }
      return { link_id: linkId, indice, parte: shown.beneficiarios[indice] ?? null, reparto: shown }
    }

    /** Writes the part's new state; when the split leaves review, `link.acreditado` once. */
    const update = (
      link: LinkRow,
      reparto: Split.RepartoView,
      indice: number,
      change: Partial<Pick<Split.BeneficiarioView, "estado" | "referencia_bancaria" | "liquidacion_txn_id">>
    ) =>
      Effect.gen(function* () {
        const beneficiarios = reparto.beneficiarios.map((b, i) => (i === indice ? { ...b, ...change } : b))
        const next = Split.reparto({
          moneda: reparto.moneda,
          montoComercio: Money.Cents(reparto.monto_comercio),
          beneficiarios
        })
        yield* sql`update links set reparto = ${pg.json(next)} where id = ${link.id}`
        // Issue 42: a split a refund stopped sends no `link.acreditado` (nothing reached the
        // merchant); a live split's merchant part is credited, and the notice sent, by the
        // settlement job once the split finished.
        const detenido = (yield* sql`select 1 from repartos_detenidos where link_id = ${link.id}`).length > 0
        if (
          next.estado !== "en_revision" &&
          next.estado !== "pendiente" &&
          link.mode === "live" &&
          !detenido
        ) {
          yield* encolarLiquidacion(link.id).pipe(Effect.provideService(PgClient.PgClient, pg))
        } else if (next.estado !== "en_revision" && link.mode !== "live" && !detenido) {
          const [liquidacion] = yield* sql<{ id: string }>`
            select id::text as id from transacciones where link_id = ${link.id} and operacion in ('liquidacion', 'cobro')
            order by (operacion = 'liquidacion') desc, created_at desc limit 1`
          yield* Outbox.write({
            comercioId: link.comercio_id,
            mode: link.mode,
            evento: "link.acreditado",
            dedupe: `link.acreditado:${link.id}`,
            at: new Date(),
            data: {
              link_id: link.id,
              monto_acreditado: bs(next.monto_comercio),
              liquidacion_txn_id: liquidacion?.id ?? link.id,
              reparto: Split.repartoJson(next),
              mode: link.mode
            }
          }).pipe(Effect.provideService(PgClient.PgClient, pg))
        }
        return next
      })

    /** A paid part: its own `reparto` transaction with the bank's reference. */
    const paid = (
      link: LinkRow,
      reparto: Split.RepartoView,
      indice: number,
      txnId: string,
      referencia: string
    ) =>
      Effect.gen(function* () {
        const part = reparto.beneficiarios[indice]
        const at = new Date()
        yield* sql`
          insert into transacciones (id, comercio_id, mode, operacion, estado, link_id, monto, moneda,
            referencia_banco, created_at, liquidada_at)
          values (${txnId}, ${link.comercio_id}, ${link.mode}, 'reparto', 'LIQUIDADA', ${link.id},
            ${part?.monto ?? 0}, 'VES', ${referencia}, ${at}, ${at})
          on conflict do nothing`
        return yield* update(link, reparto, indice, {
          estado: "pagado",
          referencia_bancaria: referencia,
          liquidacion_txn_id: txnId
        })
      })

    /** A split a refund stopped is never paid through the bank (call it under the link's lock). */
    const noDetenido = (linkId: string) =>
      Effect.gen(function* () {
        const held = yield* sql`select 1 from repartos_detenidos where link_id = ${linkId}`
        if (held.length > 0)
          return yield* Effect.fail(
            OperadorError.conflict(
              "reparto_detenido",
              "Un reembolso detuvo este reparto antes de pagarlo: no se envía dinero a los beneficiarios. " +
                "Ciérralo sin pagar, o márcalo pagado si el dinero salió por otra vía."
            )
          )
      })

    const openPago = (linkId: string, indice: number) =>
      sql<{ id: string; estado: string; solicitado_por: string }>`
        select id::text as id, estado, solicitado_por::text as solicitado_por from pagos_reparto
        where link_id = ${linkId} and indice = ${indice} and estado in ('pendiente', 'enviado') for update`

    const resolve = (
      accion: string,
      run: (
        who: OperadorSession,
        locked: { link: LinkRow; reparto: Split.RepartoView },
        indice: number
      ) => Effect.Effect<
        { reparto: Split.RepartoView; nota?: string | undefined; banco?: unknown },
        OperadorError | SqlError,
        HttpServerRequest.HttpServerRequest
      >
    ): Ruta["handler"] =>
      Effect.gen(function* () {
        const who = yield* ctx.operador()
        const { linkId, indice } = yield* parte
        return json(
          yield* sql
            .withTransaction(
              Effect.gen(function* () {
                // Asking the bank: allowed while a payment or a hand-recorded resolution is under way.
                const locked = yield* lock(linkId, indice)
                const done = yield* run(who, locked, indice)
                const antes = view(linkId, indice, locked.reparto)
                const despues = view(linkId, indice, done.reparto)
                yield* operadores.auditar(who, {
                  accion,
                  objeto_tipo: TIPO,
                  objeto_id: parteId(linkId, indice),
                  antes: antes.parte,
                  despues: { ...despues.parte, reparto_estado: done.reparto.estado },
                  nota: done.nota
                })
                return { ...despues, ...(done.banco === undefined ? {} : { banco: done.banco }) }
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
        )
      }) as Ruta["handler"]

    /** The account's key for the daily cap per beneficiary (platform/SplitControles.ts). */
    const cuentaClaveDe = (link: LinkRow, indice: number) => {
      const cuenta = cuentaDe(link, indice)
      return cuenta === null ? null : Split.cuentaClave(cuenta)
    }

    /** The merchant's beneficiary account in full (the stored split, not the masked view). */
    const cuentaDe = (link: LinkRow, indice: number) =>
      Either.match(Split.decode(link.split), {
        onLeft: () => null,
        onRight: (entries) => entries[indice]?.cuenta ?? null
      })

    /**
     * The approval, the security controls and the daily cap checked again for part `indice`
     * before its payment goes out (under the advisory lock the automatic payment takes, so two
     * payments to one beneficiary are counted one after the other). Null: it may be paid.
     */
    const recheck = (link: LinkRow, indice: number, monto: number) =>
      Effect.gen(function* () {
        const cuenta = cuentaDe(link, indice)
        if (cuenta === null) return null
        const [comercio] = yield* sql<{
          cuentas_aprobadas: ReadonlyArray<Instrument.Instrument>
          tope_beneficiario_diario: number | null
        }>`
          select cuentas_aprobadas, tope_beneficiario_diario from comercios where id = ${link.comercio_id}`
        const clave = Split.cuentaClave(cuenta)
        yield* sql`select pg_advisory_xact_lock(hashtextextended(${`reparto:${link.comercio_id}:${link.mode}:${clave}`}, 0))`
        const controles = yield* SplitControles.controles({
          comercioId: link.comercio_id,
          mode: link.mode,
          claves: [clave],
          tope: comercio?.tope_beneficiario_diario ?? null,
          at: new Date()
        }).pipe(Effect.provideService(PgClient.PgClient, pg))
        return Split.checkPart({
          cuenta,
          monto: Money.Cents(monto),
          approved: comercio?.cuentas_aprobadas ?? [],
          controles
        })
      })

    /** A failed re-check: its reason kept for the queue and audited (commit it, then refuse). */
    const rechazar = (
      who: OperadorSession,
      linkId: string,
      indice: number,
      bloqueo: Split.Bloqueo,
      pagoId: string | null
    ) =>
      Effect.gen(function* () {
        const text = Split.motivoBloqueo(bloqueo)
        if (pagoId !== null)
          yield* sql`update pagos_reparto set estado = 'fallido' where id = ${pagoId} and estado = 'pendiente'`
        yield* sql`
          insert into repartos_motivos (link_id, indice, motivo) values (${linkId}, ${indice}, ${text})
          on conflict (link_id, indice) do update set motivo = excluded.motivo, created_at = now()`
        yield* operadores.auditar(who, {
          accion: "reparto.pagar_rechazado",
          objeto_tipo: TIPO,
          objeto_id: parteId(linkId, indice),
          despues: { pago_id: pagoId, motivo: text }
        })
        return OperadorError.conflict(
          bloqueo._tag === "NoAprobada" ? "split_cuenta_no_preaprobada" : "split_beneficiario_bloqueado",
          `No se envía el pago: ${text}. La parte sigue en revisión.`
        )
      })

    const sendPayment = (who: OperadorSession, pagoId: string, linkId: string, indice: number) =>
      Effect.gen(function* () {
        const [link] = yield* sql<LinkRow>`
          select id::text as id, comercio_id::text as comercio_id, mode, split, reparto from links where id = ${linkId}`
        const part = link?.reparto?.beneficiarios[indice]
        const cuenta = link === undefined ? null : cuentaDe(link, indice)
        const answer: Ports.BankAnswer =
          link === undefined || part === undefined || cuenta === null
            ? { estado: "ERROR", referencia_banco: null, endtoend: null, motivo_rechazo: "CUENTA_NO_EXISTE" }
            : yield* banks.forMode(link.mode).credit({
                operacionId: pagoId,
                monto: Money.Cents(part.monto),
                concepto: `Reparto del link ${linkId}`,
                ordenante: ORDENANTE,
                beneficiario: cuenta,
                via: "credito_inmediato"
              })
        const banco = bankView(answer)
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* guardarRespuesta(sql, {
              objeto_tipo: TIPO,
              objeto_id: parteId(linkId, indice),
              answer,
              origen: "envio",
              operadorId: who.id
            })
            const liquidada = answer.estado === "LIQUIDADA" && answer.referencia_banco !== null
            const estado = liquidada
              ? "pagado"
              : answer.estado === "ACEPTADA" || answer.estado === "PENDIENTE"
                ? "enviado"
                : "fallido"
            // Left `enviado`, the reconciler (settlement/RepartoLive.ts) asks the bank about it again.
            const proxima = estado === "enviado" ? proximaConsulta(settings.conciliarSegundos, 0) : null
            yield* sql`update pagos_reparto set estado = ${estado}, respuesta = ${JSON.stringify(banco)}::jsonb,
                proxima_consulta = ${proxima}
              where id = ${pagoId}`
            const locked = yield* lock(linkId, indice).pipe(Effect.option)
            const reparto =
              liquidada && locked._tag === "Some"
                ? yield* paid(
                    locked.value.link,
                    locked.value.reparto,
                    indice,
                    pagoId,
                    answer.referencia_banco ?? ""
                  )
                : ((locked._tag === "Some" ? locked.value.reparto : link?.reparto) ?? null)
            yield* operadores.auditar(who, {
              accion: "reparto.pagar_enviado",
              objeto_tipo: TIPO,
              objeto_id: parteId(linkId, indice),
              despues: { pago_id: pagoId, banco, reparto_estado: reparto?.estado ?? null }
            })
            return {
              ...(reparto === null ? { link_id: linkId, indice } : view(linkId, indice, reparto)),
              pago: { id: pagoId, estado },
              banco
            }
          })
        )
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /** A part's new state: the audit row's `despues` and the answer. */
    const resultado = (linkId: string, indice: number, next: Split.RepartoView, nota: string | undefined) => {
      const despues = view(linkId, indice, next)
      return { despues: { ...despues.parte, reparto_estado: next.estado }, respuesta: despues, nota }
    }

    const base = "/admin/v1/operador/revision/repartos/:link_id/:indice" as const
    const out: ReadonlyArray<Ruta> = [
      ...manuales({
        ctx,
        sql,
        settings,
        auditar: operadores.auditar,
        base,
        objetoTipo: TIPO,
        clave: parte,
        objetoId: ({ linkId, indice }) => parteId(linkId, indice),
        // While a payment through the bank is asked for or on its way, only asking the bank is allowed.
        bloquear: ({ linkId, indice }) =>
          Effect.gen(function* () {
            const locked = yield* lock(linkId, indice)
            if ((yield* openPago(linkId, indice)).length > 0)
              return yield* Effect.fail(
                OperadorError.conflict("pago_en_curso", "Hay un pago por el banco pendiente o enviado.")
              )
            return { ...locked, indice }
          }),
        monto: ({ part }) => part.monto,
        vista: ({ link, reparto, indice }) => view(link.id, indice, reparto).parte,
        marcarPagada: {
          auditoria: "reparto.marcar_pagada",
          schema: MarcarPagadaBody,
          aplicar: (_who, { link, reparto, indice }, input) =>
            Effect.map(paid(link, reparto, indice, randomUUID(), input.referencia_banco), (next) =>
              resultado(link.id, indice, next, input.nota)
            )
        },
        cerrar: {
          auditoria: "reparto.cerrar_sin_pagar",
          schema: CerrarBody,
          aplicar: (_who, { link, reparto, indice }, input) =>
            Effect.map(update(link, reparto, indice, { estado: "descartado" }), (next) =>
              resultado(link.id, indice, next, input.nota)
            )
        }
      }),
      {
        method: "post",
        path: `${base}/consultar`,
        handler: resolve("reparto.consultar_banco", (who, { link, reparto }, indice) =>
          Effect.gen(function* () {
            const [pago] = yield* sql<{ id: string }>`
              select id::text as id from pagos_reparto
              where link_id = ${link.id} and indice = ${indice} and estado in ('enviado', 'fallido')
              order by created_at desc limit 1`
            if (pago === undefined)
              return yield* Effect.fail(
                OperadorError.conflict("sin_orden", "No se ha enviado ninguna orden al banco por esta parte.")
              )
            const answer = yield* banks.forMode(link.mode).query(pago.id)
            yield* guardarRespuesta(sql, {
              objeto_tipo: TIPO,
              objeto_id: parteId(link.id, indice),
              answer,
              origen: "operador",
              operadorId: who.id
            })
            const banco = bankView(answer)
            if (answer.estado === "LIQUIDADA" && answer.referencia_banco !== null) {
              yield* sql`update pagos_reparto set estado = 'pagado' where id = ${pago.id}`
              return { reparto: yield* paid(link, reparto, indice, pago.id, answer.referencia_banco), banco }
            }
            if (answer.estado === "RECHAZADA")
              yield* sql`update pagos_reparto set estado = 'fallido' where id = ${pago.id} and estado = 'enviado'`
            return { reparto, banco }
          })
        )
      },
      {
        method: "post",
        path: `${base}/pagar`,
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const { linkId, indice } = yield* parte
          const input = yield* decodeBody(NotaBody)(yield* ctx.body)
          const pagoId = randomUUID()
          const asked = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const { link, part } = yield* lock(linkId, indice)
                yield* noDetenido(linkId)
                yield* sinPendiente(sql, TIPO, parteId(linkId, indice))
                if (cuentaDe(link, indice) === null)
                  return yield* Effect.fail(
                    OperadorError.conflict("sin_cuenta", "La parte no tiene una cuenta a la que pagar.")
                  )
                const bloqueo = yield* recheck(link, indice, part.monto)
                if (bloqueo !== null)
                  return { refused: yield* rechazar(who, linkId, indice, bloqueo, null), alone: false }
                const alone = part.monto < umbralCentimos
                const inserted = yield* sql`
                  insert into pagos_reparto (id, link_id, indice, monto, solicitado_por, estado, mode, comercio_id, cuenta_clave,
                    proxima_consulta)
                  values (${pagoId}, ${linkId}, ${indice}, ${part.monto}, ${who.id}, ${alone ? "enviado" : "pendiente"},
                    ${link.mode}, ${link.comercio_id}, ${cuentaClaveDe(link, indice)}, ${alone ? trasElEnvio(settings) : null})
                  on conflict do nothing returning id`
                if (inserted.length === 0)
                  return yield* Effect.fail(
                    OperadorError.conflict(
                      "pago_en_curso",
                      "Ya hay un pago de esta parte pendiente o enviado."
                    )
                  )
                yield* operadores.auditar(who, {
                  accion: "reparto.pagar_solicitado",
                  objeto_tipo: TIPO,
                  objeto_id: parteId(linkId, indice),
                  despues: { pago_id: pagoId, monto: bs(part.monto), cuatro_ojos: !alone },
                  nota: input.nota
                })
                return { refused: null, alone }
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
          if (asked.refused !== null) return yield* Effect.fail(asked.refused)
          if (!asked.alone)
            return json(
              {
                link_id: linkId,
                indice,
                pago: { id: pagoId, estado: "pendiente", requiere_confirmacion: true }
              },
              202
            )
          return json(yield* sendPayment(who, pagoId, linkId, indice))
        })
      },
      {
        method: "post",
        path: `${base}/pagar/confirmar`,
        handler: Effect.gen(function* () {
          const who = yield* ctx.operador()
          const { linkId, indice } = yield* parte
          const confirmed = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const { link, part } = yield* lock(linkId, indice)
                yield* noDetenido(linkId)
                const [pago] = (yield* openPago(linkId, indice)).filter((p) => p.estado === "pendiente")
                if (pago === undefined)
                  return yield* Effect.fail(
                    OperadorError.conflict("sin_pago_pendiente", "No hay un pago por confirmar.")
                  )
                if (pago.solicitado_por === who.id)
                  return yield* Effect.fail(
                    OperadorError.forbidden(
                      "cuatro_ojos",
                      "Otro operador de tesorería debe confirmar este pago."
                    )
                  )
                const bloqueo = yield* recheck(link, indice, part.monto)
                if (bloqueo !== null)
                  return { refused: yield* rechazar(who, linkId, indice, bloqueo, pago.id), pagoId: pago.id }
                yield* sql`
                  update pagos_reparto set estado = 'enviado', confirmado_por = ${who.id}, confirmado_at = now(),
                    proxima_consulta = ${trasElEnvio(settings)}
                  where id = ${pago.id}`
                yield* operadores.auditar(who, {
                  accion: "reparto.pagar_confirmado",
                  objeto_tipo: TIPO,
                  objeto_id: parteId(linkId, indice),
                  despues: { pago_id: pago.id }
                })
                return { refused: null, pagoId: pago.id }
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
          if (confirmed.refused !== null) return yield* Effect.fail(confirmed.refused)
          return json(yield* sendPayment(who, confirmed.pagoId, linkId, indice))
        })
      }
    ]
    return out
  })

export const repartos: Fuente<SqlClient.SqlClient | PgClient.PgClient | Banks | Settings | OperadorService> =
  {
    listar,
    rutas
  }
