// Part 7 of `npm run bench`: GET /switch/v1/links for one merchant holding BENCH_LINKS links
// (1,000,000 by default; the goal is p99 ≤ 50 ms for every filter at 10,000,000). The links are
// written straight into Postgres (a year of them: a tenth cancelled, a tenth paid, a few in
// review, one in 997 with a rarer word), then each filter and a deep page are asked
// sequentially, one connection, and their p50/p99 reported beside the goal.
import autocannon from "autocannon"
import pg from "pg"

const GOAL_P99_MS = 50

const timed = (url, headers, amount) =>
  new Promise((done, fail) =>
    autocannon({ url, headers, connections: 1, amount }, (error, result) =>
      error ? fail(error) : done(result)
    )
  )

export const bigMerchantLists = async ({ url, databaseUrl, links, requests = 60 }) => {
  const codigo = `big${Date.now().toString(36)}`
  const registered = await fetch(`${url}/switch/v1/comercios/registrar`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      codigo,
      nombre: "Comercio grande",
      identificacion: "J-07013380-5",
      email: `${codigo}@example.com`
    })
  })
  if (registered.status !== 201) throw new Error(`registrar: ${registered.status}`)
  const key = `${codigo}:${(await registered.json()).api_key}`
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const started = Date.now()
  try {
    const { rows } = await client.query("select id from comercios where codigo = $1", [codigo])
    const comercioId = rows[0].id
    const chunk = 250_000
    for (let from = 1; from <= links; from += chunk) {
      const to = Math.min(links, from + chunk - 1)
      await client.query(
        `insert into links (id, comercio_id, mode, estado, monto, concepto, busqueda, created_at, paid_at, expires_at)
         select gen_random_uuid(), $1, 'test',
           case when i % 2003 = 0 then 'revision' when i % 10 = 0 then 'cancelado' when i % 10 = 5 then 'pagado'
             else 'pendiente' end,
           100 + i % 100000, 'Pedido ' || i || case when i % 997 = 0 then ' zapatos' else '' end,
           'pedido ' || i || case when i % 997 = 0 then ' zapatos' else '' end,
           now() - make_interval(secs => i * (31536000.0 / $2)),
           case when i % 10 = 5 then now() - make_interval(secs => i * (31536000.0 / $2)) + interval '1 minute' end,
           now() + interval '30 days'
         from generate_series($3::int, $4::int) i`,
        [comercioId, links, from, to]
      )
    }
    await client.query("analyze links")
  } finally {
    await client.end()
  }
  const seededSeconds = Math.round((Date.now() - started) / 1000)
  const headers = { "x-switch-key": key }
  const list = (query) => `${url}/switch/v1/links?${query}`
  const first = await (await fetch(list("limit=50"), { headers })).json()
  const deepOffset = Math.min(links - 50, 500_000)
  const deepPage = await (await fetch(list(`limit=1&offset=${deepOffset}`), { headers })).json()
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString()
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString()
  const queries = {
    newest: "limit=50",
    estado_cancelado: "estado=cancelado",
    estado_revision: "estado=revision",
    desde_hasta_dia: `desde=${encodeURIComponent(dayAgo)}&hasta=${encodeURIComponent(new Date().toISOString())}`,
    desde_semana: `desde=${encodeURIComponent(weekAgo)}`,
    q_palabra: "q=zapatos",
    q_ausente: "q=inexistente",
    monto_rango: "min=100&max=150",
    starting_after_profundo: `limit=50&starting_after=${deepPage[0]?.id ?? first[0].id}`,
    offset_profundo: `limit=50&offset=${deepOffset}`
  }
  const out = { seeded_links: links, seed_seconds: seededSeconds, goal_p99_ms: GOAL_P99_MS }
  for (const [name, query] of Object.entries(queries)) {
    await timed(list(query), headers, 5)
    const result = await timed(list(query), headers, requests)
    out[name] = {
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      goal: result.latency.p99 <= GOAL_P99_MS ? "met" : "missed"
    }
  }
  return out
}
