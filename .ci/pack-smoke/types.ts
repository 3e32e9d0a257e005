// The Promise entry's types from an ESM TypeScript file, checked without skipLibCheck.
import { type Link, type LinkCreateParams, Switch, SwitchError, type SwitchEvent } from "@switch/sdk"

const sw = new Switch({ key: "demo:sk_test_smoke" })
const params: LinkCreateParams = { monto: 150.5, concepto: "Pedido #1001" }
// @ts-expect-error monto is a number: the types are real, not `any`
const wrong: LinkCreateParams = { monto: "150", concepto: "x" }

export const create = async (): Promise<string> => {
  const link: Link = await sw.links.create(params, { idempotencyKey: "pedido-1001" })
  const estado: "pendiente" | "cobrando" | "procesando" | "revision" | "pagado" | "expirado" | "cancelado" =
    link.estado
  return `${link.url} ${estado} ${wrong.concepto}`
}

export const handle = (event: SwitchEvent): number | undefined =>
  event.evento === "link.pagado" ? event.data.total : undefined

export const explain = (error: unknown): string =>
  error instanceof SwitchError
    ? `${error.code} ${error.status ?? ""} ${error.requestId ?? ""}`
    : String(error)
