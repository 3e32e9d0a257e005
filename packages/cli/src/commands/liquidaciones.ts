/** `liquidaciones list`: the merchant's settlements, newest first, every page with `--all`. */
import { type Command, InvalidArgumentError } from "commander"
import { action, optionWithValues, parseInteger } from "../Action.js"
import { bs } from "../Output.js"
import { collect, pageSize } from "./links.js"

const ESTADOS = ["PENDIENTE", "LIQUIDADA", "REVISION", "RECHAZADA"] as const

const estadoOf = (value: string): string => {
  const estado = value.trim().toUpperCase()
  if (!(ESTADOS as ReadonlyArray<string>).includes(estado))
    throw new InvalidArgumentError(`debe ser uno de: ${ESTADOS.join(", ")}`)
  return estado
}

export const registerLiquidaciones = (program: Command) => {
  const liquidaciones = program
    .command("liquidaciones")
    .description("liquidaciones del comercio: el neto de cada link pagado acreditado a su cuenta")
  liquidaciones
    .command("list")
    .description("lista las liquidaciones del modo de la llave, las más recientes primero")
    .addOption(optionWithValues("--estado <estado>", "solo las de este estado", ESTADOS, estadoOf))
    .option("--limit <n>", "cuántas mostrar (50 por defecto)", parseInteger(1, 1_000_000))
    .option("--all", "todas, recorriendo todas las páginas")
    .action(
      action(async (context, options: { estado?: string; limit?: number; all?: boolean }) => {
        const rows = await collect(
          context.client().liquidaciones.list({
            ...(options.estado === undefined ? {} : { estado: options.estado }),
            limit: pageSize(options)
          }),
          options
        )
        context.output.result(rows, () =>
          context.output.table(
            rows,
            [
              { title: "id", value: (l) => l.id },
              { title: "estado", value: (l) => l.estado },
              { title: "cobrado", value: (l) => bs(l.cobrado) },
              { title: "neto", value: (l) => bs(l.neto) },
              { title: "link", value: (l) => l.link_id },
              { title: "concepto", value: (l) => l.concepto, max: 30 },
              { title: "creada", value: (l) => l.created_at.slice(0, 16).replace("T", " ") }
            ],
            "(ninguna liquidación)"
          )
        )
        return 0
      })
    )
}
