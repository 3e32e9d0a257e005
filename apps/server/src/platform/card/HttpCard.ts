/**
 * The card processor adapter: @switch/core's CardProcessor over HTTP to SWITCH_CARD_URL (the
 * protocol of apps/card-sim, the simulator used in development and tests), with a deadline on
 * every call and our shared key (SWITCH_CARD_CLAVE) as a bearer token.
 *
 * A query that gets no answer is `SinRespuesta`, never "not charged": only the processor's own
 * word releases a link. A `404` to a query is the processor saying it never opened the form,
 * so nothing was charged. A charge's `aprobado` is `Cobrado`; `rechazado`, `vencido` and
 * `cerrado` are final and uncharged; `abierto` is still in course.
 */
import { Ports } from "@switch/core"
import { Effect, Layer, Redacted } from "effect"
import { Agent, request } from "undici"
import { cardClaveFrom, Settings } from "../../Config.js"

const TIMEOUT_MS = 10_000
const agent = new Agent({ connect: { timeout: 3_000 }, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS })

/** The callback route of this server, where the processor sends signed callbacks. */
export const CALLBACK_PATH = "/tarjeta/callbacks"

const statusOf = (body: Record<string, unknown>): Ports.CardStatus => {
  switch (body.estado) {
    case "aprobado":
      return typeof body.referencia === "string" && body.referencia !== ""
        ? { _tag: "Cobrado", referencia: body.referencia }
        : { _tag: "SinRespuesta" }
    case "rechazado":
    case "vencido":
    case "cerrado":
      return { _tag: "NoCobrado" }
    case "abierto":
      return { _tag: "EnCurso" }
    default:
      return { _tag: "SinRespuesta" }
  }
}

export const CardProcessorLive = Layer.effect(
  Ports.CardProcessor,
  Effect.gen(function* () {
    const settings = yield* Settings
    const base = settings.cardUrl ?? null
    const clave =
      settings.cardClave === undefined || settings.cardClave === null
        ? cardClaveFrom(Redacted.value(settings.secret))
        : Redacted.value(settings.cardClave)
    if (base === null)
      yield* Effect.logInfo("SWITCH_CARD_URL no está definido: el piloto de tarjeta no tiene procesador")

    const call = (method: "GET" | "POST", path: string, body?: unknown) =>
      Effect.tryPromise(async () => {
        if (base === null) throw new Error("sin procesador")
        const r = await request(`${base}${path}`, {
          method,
          dispatcher: agent,
          headers: { "content-type": "application/json", authorization: `Bearer ${clave}` },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(TIMEOUT_MS)
        })
        const text = await r.body.text()
        let parsed: unknown = null
        try {
          parsed = JSON.parse(text)
        } catch {
          parsed = null
        }
        return {
          status: r.statusCode,
          body: (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>
        }
      })

    return {
      open: (input) =>
        call("POST", "/v1/cargos", {
          cargo_id: input.chargeId,
          link_id: input.linkId,
          monto: input.total,
          url_retorno: input.returnUrl,
          url_callback: `${settings.baseUrl}${CALLBACK_PATH}`,
          expira_en: input.expiresAt.toISOString()
        }).pipe(
          Effect.mapError(() => new Ports.CardUnavailable({ motivo: "sin_respuesta" })),
          Effect.flatMap((r) =>
            r.status === 200 && typeof r.body.url_formulario === "string"
              ? Effect.succeed<Ports.CardSession>({
                  chargeId: input.chargeId,
                  formUrl: r.body.url_formulario,
                  expiresAt: input.expiresAt
                })
              : Effect.fail(new Ports.CardUnavailable({ motivo: `http_${r.status}` }))
          )
        ),
      query: (chargeId, options) =>
        call(
          options.close ? "POST" : "GET",
          `/v1/cargos/${encodeURIComponent(chargeId)}${options.close ? "/cerrar" : ""}`
        ).pipe(
          Effect.map(
            (r): Ports.CardStatus =>
              r.status === 404
                ? { _tag: "NoCobrado" }
                : r.status === 200
                  ? statusOf(r.body)
                  : { _tag: "SinRespuesta" }
          ),
          Effect.orElseSucceed((): Ports.CardStatus => ({ _tag: "SinRespuesta" }))
        ),
      nightlyClose: (dia) =>
        call("GET", `/v1/cierres/${encodeURIComponent(dia)}`).pipe(
          Effect.map((r): Ports.CardClose => {
            if (r.status !== 200 || r.body.estado !== "cerrado" || !Array.isArray(r.body.creditos))
              return { _tag: "Pendiente" }
            const creditos: Array<Ports.CardCredit> = []
            for (const c of r.body.creditos as Array<Record<string, unknown>>) {
              if (
                typeof c.cargo_id === "string" &&
                typeof c.referencia === "string" &&
                typeof c.monto === "number"
              )
                creditos.push({ chargeId: c.cargo_id, referencia: c.referencia, total: c.monto as never })
            }
            return { _tag: "Cerrado", dia, creditos }
          }),
          Effect.orElseSucceed((): Ports.CardClose => ({ _tag: "Pendiente" }))
        )
    }
  })
)
