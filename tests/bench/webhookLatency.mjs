// Benchmark 5: from the payer's "pay" request to the merchant's receiver holding the
// `link.pagado` notice. A merchant is registered and approved, a webhook points at a receiver on
// loopback (the server runs with SWITCH_WEBHOOK_ALLOW_PRIVATE=1), and test links are paid on
// the checkout page with the sandbox's approving code, a few payers at a time.
import { createServer } from "node:http"

const ADMIN_HEADERS = (token) => ({ "x-admin-token": token, "content-type": "application/json" })

const startReceiver = async () => {
  const waiting = new Map()
  const early = new Map()
  const server = createServer((request, response) => {
    let body = ""
    request.on("data", (c) => {
      body += c
    })
    request.on("end", () => {
      const at = performance.now()
      response.writeHead(200).end("ok")
      const notice = JSON.parse(body)
      if (notice.evento !== "link.pagado") return
      const linkId = notice.data.link_id
      const resolve = waiting.get(linkId)
      if (resolve === undefined) early.set(linkId, at)
      else resolve(at)
    })
  })
  await new Promise((r) => server.listen(0, "127.0.0.1", r))
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    /** When the notice of `linkId` arrived (waits for it, at most `ms`). */
    arrival: (linkId, ms) =>
      early.has(linkId)
        ? Promise.resolve(early.get(linkId))
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no link.pagado for ${linkId}`)), ms)
            waiting.set(linkId, (at) => {
              clearTimeout(timer)
              resolve(at)
            })
          }),
    close: () => new Promise((r) => server.close(r))
  }
}

const json = async (response) => {
  const text = await response.text()
  if (!response.ok) throw new Error(`${response.status} ${text}`)
  return JSON.parse(text)
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

/** Pays `payments` links, `concurrency` at a time, and returns the latencies' p50, p99 and max. */
export const paymentToWebhook = async ({ url, adminToken, payments = 200, concurrency = 4 }) => {
  const codigo = `bench_${Date.now().toString(36)}`
  const registered = await json(
    await fetch(`${url}/switch/v1/comercios/registrar`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        codigo,
        nombre: "Bench",
        identificacion: "J-07013380-5",
        email: `${codigo}@example.com`
      })
    })
  )
  const approved = await json(
    await fetch(`${url}/admin/v1/comercios/${codigo}/aprobar`, {
      method: "POST",
      headers: ADMIN_HEADERS(adminToken),
      body: JSON.stringify({
        emitir_llave: true,
        cuenta_liquidacion: {
          tipo: "cuenta",
          valor: "01050194651194079423",
          banco: "0105",
          identificacion: "J-07013380-5",
          nombre: "Bench"
        }
      })
    })
  )
  // Reviewed, so the new-account caps (in dollars, needing a BCV rate) do not apply.
  await fetch(`${url}/admin/v1/comercios/${codigo}/revisar`, {
    method: "POST",
    headers: ADMIN_HEADERS(adminToken)
  })
  const testKey = `${codigo}:${registered.api_key}`
  const liveKey = `${codigo}:${approved.api_key}`
  const receiver = await startReceiver()
  try {
    await json(
      await fetch(`${url}/switch/v1/webhooks`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-switch-key": liveKey },
        body: JSON.stringify({ url: receiver.url, eventos: ["link.pagado"] })
      })
    )
    const payOne = async (i) => {
      const link = await json(
        await fetch(`${url}/switch/v1/links`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-switch-key": testKey },
          body: JSON.stringify({ monto: 10 + i, concepto: `Latencia ${i}` })
        })
      )
      const page = await fetch(`${url}/l/${link.id}`)
      const html = await page.text()
      const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0]
      const csrf = /<meta name="csrf" content="([^"]+)"/.exec(html)?.[1] ?? ""
      const started = performance.now()
      const paid = await json(
        await fetch(`${url}/l/${link.id}/pagar`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie, "x-csrf": csrf },
          body: JSON.stringify({
            banco: "0102",
            tipo_doc: "V",
            identificacion: "12345678",
            telefono: `0414${String(1_000_000 + i).padStart(7, "0")}`,
            otp: "12345678"
          })
        })
      )
      if (paid.estado !== "pagado") throw new Error(`payment ${i} answered ${JSON.stringify(paid)}`)
      const answered = performance.now()
      answers.push(answered - started)
      const arrived = await receiver.arrival(link.id, 30_000)
      // What the notice took beyond the payment's own answer (negative: it came first).
      afterAnswer.push(arrived - answered)
      return arrived - started
    }
    const latencies = []
    const answers = []
    const afterAnswer = []
    let next = 0
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < payments) latencies.push(await payOne(next++))
      })
    )
    latencies.sort((a, b) => a - b)
    answers.sort((a, b) => a - b)
    afterAnswer.sort((a, b) => a - b)
    const round = (ms) => Math.round(ms * 10) / 10
    return {
      payments,
      concurrency,
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.at(-1)),
      pay_answer_p50: round(percentile(answers, 50)),
      after_answer_p50: round(percentile(afterAnswer, 50)),
      after_answer_p99: round(percentile(afterAnswer, 99))
    }
  } finally {
    await receiver.close()
  }
}
