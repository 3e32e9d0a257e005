/** `admin approve|review|suspend|set|get|tasa-bcv|operador crear`: DESIGN §5's operator API (`/admin/v1`, `x-admin-token`). */
import { readFileSync } from "node:fs"
import { type Command, InvalidArgumentError } from "commander"
import { action, parseAmount } from "../Action.js"
import type { Context } from "../Context.js"
import { UsageError } from "../Output.js"
import { answerOf } from "./api.js"

const MONEY = ["monto_min", "monto_max", "max_diario", "tope_diario", "tope_acumulado"] as const
const FLAGS = [
  "liquidacion_inmediata",
  "pagar_habilitado",
  "split_habilitado",
  "tarjeta_habilitada",
  "reembolsos_habilitado"
] as const
const PERCENT = ["comision_pct", "propina_max_pct"] as const
/** Every field `PATCH /admin/v1/comercios/{codigo}` takes. */
export const ADMIN_FIELDS = ["estado", ...PERCENT, ...FLAGS, ...MONEY, "cuenta_liquidacion"] as const

const includes = (list: ReadonlyArray<string>, value: string) => list.includes(value)

/** One `campo=valor` of `admin set`, typed by the field. */
export const parseAdminField = (pair: string): readonly [string, unknown] => {
  const at = pair.indexOf("=")
  if (at <= 0) throw new UsageError(`"${pair}" debe tener la forma campo=valor`)
  const field = pair.slice(0, at).trim()
  const raw = pair.slice(at + 1).trim()
  const bad = (what: string) => new UsageError(`${field}: "${raw}" no es ${what}`)
  if (field === "estado") {
    if (raw !== "activo" && raw !== "suspendido") throw bad("activo ni suspendido")
    return [field, raw]
  }
  if (raw === "null" && field !== "estado" && !includes(FLAGS, field)) return [field, null]
  if (includes(FLAGS, field)) {
    if (/^(true|si|sí|1)$/i.test(raw)) return [field, true]
    if (/^(false|no|0)$/i.test(raw)) return [field, false]
    throw bad("true ni false")
  }
  if (includes(PERCENT, field)) {
    const n = Number(raw.replace(",", "."))
    if (raw === "" || !Number.isFinite(n)) throw bad("un porcentaje")
    return [field, n]
  }
  if (includes(MONEY, field)) {
    const match = /^([\d.,]+)\s*[: ]?\s*(VES|USD|Bs)?$/i.exec(raw)
    if (match === null) throw bad("un monto como 300, 300VES o 300USD")
    let monto: number
    try {
      monto = parseAmount(match[1]!)
    } catch (error) {
      if (error instanceof InvalidArgumentError) throw bad("un monto como 300, 300VES o 300USD")
      throw error
    }
    const moneda = (match[2] ?? "VES").toUpperCase() === "USD" ? "USD" : "VES"
    return [field, { monto, moneda }]
  }
  if (field === "cuenta_liquidacion") {
    const text = raw.startsWith("@") ? readFileSync(raw.slice(1), "utf8") : raw
    try {
      return [field, JSON.parse(text)]
    } catch {
      throw bad("JSON (un Instrument, o @archivo.json)")
    }
  }
  throw new UsageError(`campo desconocido "${field}"; válidos: ${ADMIN_FIELDS.join(", ")}`)
}

const adminCall = async (context: Context, method: string, path: string, body?: unknown) => {
  const token =
    (context.options as { adminToken?: string }).adminToken ?? (context.env.SWITCH_ADMIN_TOKEN || undefined)
  if (token === undefined) {
    throw new UsageError("falta el token de administrador: --admin-token o SWITCH_ADMIN_TOKEN", {
      code: "sin_token_admin"
    })
  }
  const { baseUrl } = context.resolved()
  const response = await context.fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      accept: "application/json",
      "x-admin-token": token,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return (await answerOf(response)) as Record<string, unknown>
}

const showView = (context: Context, view: Record<string, unknown>) =>
  context.output.result(view, () => context.output.fields(Object.entries(view)))

export const registerAdmin = (program: Command) => {
  const admin = program
    .command("admin")
    .description("operaciones de administrador (requiere --admin-token o SWITCH_ADMIN_TOKEN)")
    .option("--admin-token <token>", "token de administrador (x-admin-token)")
  const codigoPath = (codigo: string) => `/admin/v1/comercios/${encodeURIComponent(codigo)}`

  admin
    .command("approve <codigo>")
    .description(
      "aprueba un comercio (KYC hecho, live habilitado; requiere su cuenta de liquidación); su dueño crea las llaves live en el portal"
    )
    .option(
      "--cuenta <json>",
      "cuenta de liquidación a nombre del comercio: un Instrument en JSON, o @archivo.json"
    )
    .option("--llave", "pide además una primera llave live, mostrada una sola vez (automatización)")
    .action(
      action(async (context, codigo: string, options: { cuenta?: string; llave?: boolean }) => {
        const fields = [
          ...(options.cuenta === undefined ? [] : [parseAdminField(`cuenta_liquidacion=${options.cuenta}`)]),
          ...(options.llave === true ? [["emitir_llave", true] as const] : [])
        ]
        const body = fields.length === 0 ? undefined : Object.fromEntries(fields)
        const view = await adminCall(context, "POST", `${codigoPath(codigo)}/aprobar`, body)
        context.output.result(view, () => {
          const o = context.output
          o.line(`${o.green("✓")} ${codigo} aprobado: estado ${view.estado}, KYC ${view.kyc_tier}`)
          if (typeof view.api_key === "string") {
            o.line(`  llave live: ${o.bold(`${codigo}:${view.api_key}`)}`)
            o.note(o.yellow("Guarda la llave live ahora: no se vuelve a mostrar."))
          } else if (view.ya_aprobado === true) {
            o.note(
              "Ya estaba aprobado: no se emite otra llave; el dueño crea llaves live en el portal (o POST /switch/v1/llaves, mode live)."
            )
          } else {
            o.note("Sin llave live: la crea el dueño del comercio en el portal (o apruébalo con --llave).")
          }
        })
        return 0
      })
    )

  admin
    .command("review <codigo>")
    .description(
      "marca la cuenta revisada: levanta los topes de cuenta nueva (US$ 300 al día, US$ 1.000 en total)"
    )
    .action(
      action(async (context, codigo: string) => {
        showView(context, await adminCall(context, "POST", `${codigoPath(codigo)}/revisar`))
        return 0
      })
    )

  admin
    .command("suspend <codigo>")
    .description("suspende un comercio (no puede crear links ni lotes; los pagos en curso terminan)")
    .action(
      action(async (context, codigo: string) => {
        showView(context, await adminCall(context, "PATCH", codigoPath(codigo), { estado: "suspendido" }))
        return 0
      })
    )

  admin
    .command("set <codigo> <campos...>")
    .description(`cambia campos: campo=valor (${ADMIN_FIELDS.join(", ")}); null borra un límite`)
    .action(
      action(async (context, codigo: string, campos: ReadonlyArray<string>) => {
        const body = Object.fromEntries(campos.map(parseAdminField))
        showView(context, await adminCall(context, "PATCH", codigoPath(codigo), body))
        return 0
      })
    )

  admin
    .command("get <codigo>")
    .description("la vista de administrador de un comercio")
    .action(
      action(async (context, codigo: string) => {
        showView(context, await adminCall(context, "GET", codigoPath(codigo)))
        return 0
      })
    )

  admin
    .command("operador")
    .description("cuentas de operadores de la consola (/operador)")
    .command("crear <email>")
    .description(
      "crea un operador (rol soporte, riesgo o tesoreria) y muestra una sola vez su secreto TOTP; la contraseña viene de SWITCH_OPERADOR_PASSWORD"
    )
    .requiredOption(
      "--rol <rol>",
      "soporte (consulta), riesgo (aprueba y suspende) o tesoreria (dinero en revisión)"
    )
    .action(
      action(async (context, email: string, options: { rol: string }) => {
        const password = context.env.SWITCH_OPERADOR_PASSWORD ?? ""
        if (password === "")
          throw new UsageError(
            "falta la contraseña: define SWITCH_OPERADOR_PASSWORD (al menos 12 caracteres)",
            {
              code: "sin_password"
            }
          )
        const made = await adminCall(context, "POST", "/admin/v1/operadores", {
          email,
          password,
          rol: options.rol
        })
        context.output.result(made, () => {
          const o = context.output
          o.line(`${o.green("✓")} operador ${made.email} creado con rol ${made.rol}`)
          o.line(`  secreto TOTP: ${o.bold(String(made.totp_secret))}`)
          o.line(`  ${String(made.totp_uri)}`)
          o.note(o.yellow("Cárgalo ahora en la app de autenticación: no se vuelve a mostrar."))
        })
        return 0
      })
    )

  admin
    .command("tasa-bcv <ves_por_usd>")
    .description("fija la tasa oficial (bolívares por dólar) de los límites en USD")
    .action(
      action(async (context, rate: string) => {
        const value = Number(rate.replace(",", "."))
        if (!Number.isFinite(value) || value <= 0) throw new UsageError(`"${rate}" no es una tasa válida`)
        showView(context, await adminCall(context, "PUT", "/admin/v1/tasa-bcv", { ves_por_usd: value }))
        return 0
      })
    )
}
