/** `trigger <evento>`: makes a real event flow by creating a test link and simulating it. */
import type { Command } from "commander"
import { action, parseAmount } from "../Action.js"
import { UsageError } from "../Output.js"

/** Events a test link can produce, and how. */
export const TRIGGERS = ["link.pagado", "link.acreditado"] as const

export const registerTrigger = (program: Command) => {
  program
    .command("trigger <evento>")
    .description(`crea un link de prueba y lo simula para que fluya un evento real (${TRIGGERS.join(", ")})`)
    .option("--monto <monto>", "monto del link de prueba", parseAmount, 100)
    .action(
      action(async (context, evento: string, options: { monto: number }) => {
        if (!(TRIGGERS as ReadonlyArray<string>).includes(evento)) {
          const hint =
            evento === "link.devuelto"
              ? "link.devuelto solo lo produce una devolución desde el portal"
              : `eventos que se pueden disparar: ${TRIGGERS.join(", ")}`
          throw new UsageError(`no se puede disparar ${evento}: ${hint}`)
        }
        const client = context.client()
        if (client.mode !== "test") {
          throw new UsageError("trigger necesita una llave de prueba (sk_test_): simular no existe en live")
        }
        const o = context.output
        if (evento === "link.acreditado") {
          const config = await client.config.get()
          if (config.frecuencia_liquidacion !== "inmediata") {
            o.note(
              o.yellow(
                "Aviso: link.acreditado solo se emite con liquidación inmediata, y este comercio liquida " +
                  `${config.frecuencia_liquidacion}; se emitirá solo link.pagado`
              )
            )
          }
        }
        const link = await client.links.create({
          monto: options.monto,
          concepto: `switch trigger ${evento}`,
          metadata: { origen: "switch trigger" }
        })
        const simulated = await client.links.simulate(link.id, "pagado")
        context.output.result({ evento, link_id: link.id, estado: simulated.estado }, () =>
          o.line(`${o.green("✓")} ${evento}: link ${link.id} creado y simulado (${simulated.estado})`)
        )
        return 0
      })
    )
}
