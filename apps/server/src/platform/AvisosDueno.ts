/**
 * Mail to a merchant's owners about what operators and the bank did to its account (issue 45):
 * approved, suspended, a settlement that could not be credited, a settlement closed without
 * paying (with the operator's note).
 *
 * The notice is queued as a durable job in the caller's transaction (`aviso_dueno`), so it is
 * sent only if what it tells about was committed, and sent again if the mail server was down
 * (each caller queues it only on the change itself, never on a repeat). The job finds the
 * owners (`usuarios` with `rol` `propietario`; the sign-up's e-mail when it has none) when it
 * runs. The mail carries no keys, tokens or payer data: what happened, the amount and the
 * operator's note.
 */
import type { SqlClient } from "@effect/sql"
import { Money } from "@switch/core"
import { Effect } from "effect"
import type { ServerSettings } from "../Config.js"
import type { Mailer } from "./Mailer.js"

export const TASK = "aviso_dueno"

export type Aviso =
  | { readonly tipo: "aprobado" }
  | { readonly tipo: "suspendido"; readonly nota?: string | undefined }
  | {
      readonly tipo: "liquidacion_fallida"
      readonly liquidacion_id: string
      readonly link_id: string | null
      /** Cents. */
      readonly monto: number
      readonly motivo: string
    }
  | {
      readonly tipo: "liquidacion_cerrada"
      readonly liquidacion_id: string
      readonly link_id: string | null
      /** Cents. */
      readonly monto: number
      readonly nota: string
    }

/** Queues `aviso` to the owners of merchant `comercioId`; inside the caller's transaction. */
export const encolar = (sql: SqlClient.SqlClient, comercioId: string, aviso: Aviso) =>
  sql`
    select 1 from graphile_worker.add_job(
      ${TASK},
      json_build_object('comercio_id', ${comercioId}::text, 'aviso', ${JSON.stringify(aviso)}::jsonb),
      max_attempts := 10
    )`.pipe(Effect.asVoid)

/** `Bs 1.234,56`. */
const bolivares = (cents: number) =>
  `Bs ${new Intl.NumberFormat("es-VE", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    Money.toNumber(Money.Cents(cents))
  )}`

/** The mail of `aviso` to the owners of `comercio`. */
export const correoDe = (
  aviso: Aviso,
  comercio: { readonly nombre: string; readonly codigo: string },
  panel: string
) => {
  const quien = `${comercio.nombre} (${comercio.codigo})`
  const link = (id: string | null) => (id === null ? "" : ` del link ${id}`)
  switch (aviso.tipo) {
    case "aprobado":
      return {
        subject: `${comercio.nombre} fue aprobado en Switch`,
        text: `Aprobamos ${quien} en Switch: ya puedes operar en modo live. Entra al panel (${panel}), pasa a modo live y crea tu llave live en Desarrolladores.\n\nLos topes de cuenta nueva siguen hasta que revisemos la cuenta.`
      }
    case "suspendido":
      return {
        subject: `${comercio.nombre} fue suspendido en Switch`,
        text: `Suspendimos ${quien} en Switch. Mientras siga suspendido no puedes crear links ni lotes, y tus links pendientes no pueden empezar a pagarse; los pagos que ya estaban en curso terminan normalmente.${
          aviso.nota === undefined || aviso.nota === "" ? "" : `\n\nNota del operador: ${aviso.nota}`
        }\n\nSi crees que es un error, responde a este correo.`
      }
    case "liquidacion_fallida":
      return {
        subject: `No pudimos acreditar una liquidación de ${comercio.nombre}`,
        text: `La liquidación de ${bolivares(aviso.monto)}${link(aviso.link_id)} no se pudo acreditar a tu cuenta: ${aviso.motivo}.\n\nUn operador la está revisando; no tienes que hacer nada. Verás su estado en Liquidaciones (${panel}/liquidaciones).\n\nLiquidación: ${aviso.liquidacion_id}`
      }
    case "liquidacion_cerrada":
      return {
        subject: `Una liquidación de ${comercio.nombre} se cerró sin pagar`,
        text: `Un operador cerró sin pagar la liquidación de ${bolivares(aviso.monto)}${link(aviso.link_id)}: ese monto no se acreditará a tu cuenta.\n\nNota del operador: ${aviso.nota}\n\nVerás el motivo en Liquidaciones (${panel}/liquidaciones). Si tienes dudas, responde a este correo.\n\nLiquidación: ${aviso.liquidacion_id}`
      }
  }
}

/** The job: mails the notice to the merchant's owners. */
export const enviar = (
  sql: SqlClient.SqlClient,
  mailer: Mailer["Type"],
  settings: ServerSettings,
  payload: Record<string, unknown>
) =>
  Effect.gen(function* () {
    const comercioId = String(payload.comercio_id ?? "")
    const aviso = payload.aviso as Aviso
    const [comercio] = yield* sql<{ nombre: string; codigo: string; email: string }>`
      select nombre, codigo, email from comercios where id = ${comercioId}`
    if (comercio === undefined) return
    const duenos = yield* sql<{ email: string }>`
      select email from usuarios where comercio_id = ${comercioId} and rol = 'propietario' order by created_at`
    const destinos = duenos.length === 0 ? [comercio.email] : duenos.map((d) => d.email)
    const correo = correoDe(aviso, comercio, `${settings.baseUrl}/panel`)
    for (const to of destinos) yield* mailer.send({ to, ...correo })
  })
