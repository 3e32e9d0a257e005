// Creates a payment link and prints where the payer opens it.
// SWITCH_KEY=demo:sk_test_... npm start -w examples/create-link
import { Switch, SwitchError } from "@switch/sdk"

const key = process.env.SWITCH_KEY
if (!key) {
  console.error("Set SWITCH_KEY to the key `npm start` printed (demo:sk_test_...).")
  process.exit(1)
}
const sw = new Switch({ key, baseUrl: process.env.SWITCH_BASE_URL ?? "http://localhost:8080" })

const monto = Number(process.argv[2] ?? 150.5)
const concepto = process.argv[3] ?? "Pedido #1001"

try {
  // No idempotency key given: the SDK generates one and keeps it across its retries.
  const link = await sw.links.create({ monto, concepto, expira_horas: 48, metadata: { pedido: "1001" } })
  console.log(`Link ${link.id} (${link.estado}, ${link.mode})`)
  console.log(`Bs ${link.monto.toFixed(2)} · ${link.concepto}`)
  console.log(`Pagar en: ${link.url}`)
  console.log(`Vence:    ${link.expires_at}`)
} catch (error) {
  if (error instanceof SwitchError) {
    console.error(`Switch respondió ${error.status ?? "sin respuesta"} ${error.code}: ${error.message}`)
    if (error.requestId) console.error(`request id: ${error.requestId}`)
    process.exit(1)
  }
  throw error
}
