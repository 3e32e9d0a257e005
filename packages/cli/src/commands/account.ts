/** `verify`, `transacciones list`, `config`, `clientes list`. */

import { NotFoundError, Switch } from "@switch/sdk"
import type { Command } from "commander"
import { action, parseInteger } from "../Action.js"
import { bs } from "../Output.js"
import { collect, pageSize } from "./links.js"

export const registerAccount = (program: Command) => {
  program
    .command("verify <codigo>")
    .description("verifica un comprobante (SW-XXXXX-XXXXX); sale con 1 si no es válido")
    .action(
      action(async (context, codigo: string) => {
        // A public route: no key needed, so a profile-less run works too.
        const { baseUrl, key } = context.resolved()
        const client = new Switch({ key: key ?? "anonimo:sk_test_sin_llave", baseUrl, fetch: context.fetch })
        const result = await client.recibos.verificar(codigo)
        if (!result.valido) {
          // The server's own words for the payer ("No existe un comprobante con ese código.").
          const { mensaje } = result as { mensaje?: string }
          throw new NotFoundError({
            status: 404,
            code: "no_encontrado",
            detail: mensaje ?? "el código no corresponde a ningún pago",
            raw: result
          })
        }
        const r = result as Extract<typeof result, { monto: number }>
        context.output.result(r, () => {
          const o = context.output
          o.line(`${o.green("✓ Válido")}${r.prueba ? o.yellow(" (pago de prueba)") : ""}: ${r.mensaje}`)
          o.fields([
            ["comercio", r.comercio],
            ["monto", `${bs(r.monto)} ${r.moneda}`],
            ["fecha", `${r.fecha_hora_caracas} (Caracas)`],
            ["estado", r.estado],
            ["concepto", r.concepto],
            ["referencia", r.referencia_bancaria],
            ...(r.referencia_externa ? ([["ref. externa", r.referencia_externa]] as const) : []),
            ["verificaciones", r.verificaciones]
          ])
        })
        return 0
      })
    )

  const transacciones = program.command("transacciones").description("transacciones del comercio")
  transacciones
    .command("list")
    .description("lista las transacciones del modo de la llave")
    .option("--limit <n>", "cuántas mostrar (50 por defecto)", parseInteger(1, 1_000_000))
    .option("--all", "todas")
    .action(
      action(async (context, options: { limit?: number; all?: boolean }) => {
        const rows = await collect(context.client().transacciones.list({ limit: pageSize(options) }), options)
        context.output.result(rows, () =>
          context.output.table(
            rows,
            [
              { title: "id", value: (t) => t.id },
              { title: "operacion", value: (t) => t.operacion },
              { title: "estado", value: (t) => t.estado },
              { title: "total", value: (t) => bs(t.total) },
              { title: "link", value: (t) => t.link_id },
              { title: "recibo", value: (t) => t.codigo_verificacion },
              { title: "creada", value: (t) => t.created_at.slice(0, 16).replace("T", " ") }
            ],
            "(ninguna transacción)"
          )
        )
        return 0
      })
    )

  program
    .command("config")
    .description("la configuración del comercio (solo lectura)")
    .action(
      action(async (context) => {
        const view = await context.client().config.get()
        context.output.result(view, () => context.output.fields(Object.entries(view)))
        return 0
      })
    )

  const clientes = program.command("clientes").description("clientes del comercio")
  clientes
    .command("list")
    .description("lista los clientes, los más recientes primero")
    .option("--limit <n>", "cuántos mostrar (50 por defecto)", parseInteger(1, 1_000_000))
    .option("--all", "todos")
    .action(
      action(async (context, options: { limit?: number; all?: boolean }) => {
        const rows = await collect(context.client().clientes.list({ limit: pageSize(options) }), options)
        context.output.result(rows, () =>
          context.output.table(
            rows,
            [
              { title: "id", value: (c) => c.id },
              { title: "novedades", value: (c) => (c.acepta_novedades ? "sí" : "no") },
              { title: "prueba", value: (c) => (c.prueba ? "sí" : "no") },
              { title: "alta", value: (c) => c.created_at.slice(0, 16).replace("T", " ") }
            ],
            "(ningún cliente)"
          )
        )
        return 0
      })
    )
}
