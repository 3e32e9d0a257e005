/**
 * Lotes: the list, creating from a CSV or Excel file (read in the browser, every row checked
 * before anything is created, batches of up to 500 created one after another with progress,
 * the result downloadable as CSV), a batch's detail with its links, cancelling its open part.
 */

import type { Lote, LoteSummary } from "@switch/sdk"
import { type ChangeEvent, type FormEvent, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"
import { bolivares, fechaHora } from "../format.js"
import { ESTADO_LABEL, type Estado } from "../linkFilters.js"
import {
  chunks,
  LOTE_MAX_ITEMS,
  type LoteArchivo,
  type LoteFilaItem,
  RESULTADO_COLUMNAS,
  readCsv,
  readRows,
  toCsv
} from "../loteArchivo.js"
import { Paginas } from "../Paginas.js"
import { Link, navigate } from "../router.js"

const PAGE = 20
const ITEMS_PAGE = 50

const EstadoChip = ({ estado }: { readonly estado: string }) => (
  <span className={`estado estado-${estado}`}>{ESTADO_LABEL[estado as Estado] ?? estado}</span>
)

const Alerta = ({ error }: { readonly error: string | null }) =>
  error === null ? null : (
    <p role="alert" className="error">
      {error}
    </p>
  )

const cantidad = (n: number, uno: string, varios: string) =>
  `${n.toLocaleString("es-VE")} ${n === 1 ? uno : varios}`

const totalLinks = (lote: LoteSummary) => Object.values(lote.por_estado).reduce((a, b) => a + b, 0)

/** A random id for idempotency keys, also where `crypto.randomUUID` is missing (plain http). */
const randomId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")

/** Offers `text` as a file download. */
const descargar = (nombre: string, text: string) => {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }))
  const a = document.createElement("a")
  a.href = url
  a.download = nombre
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

type ResultRow = readonly [fila: number | string, lote: Lote, item: Lote["items"][number]]

const resultadoCsv = (rows: ReadonlyArray<ResultRow>) =>
  toCsv(
    RESULTADO_COLUMNAS,
    rows.map(([fila, lote, item]) => [
      fila,
      lote.id,
      item.link_id,
      item.url,
      item.estado,
      item.monto.toFixed(2),
      item.concepto,
      item.referencia_externa,
      item.cliente?.nombre,
      item.cliente?.telefono,
      item.idempotency_key
    ])
  )

const nombreArchivo = (base: string) =>
  `${base.replace(/[^\w.-]+/g, "_").slice(0, 60) || "lote"}-resultado.csv`

export const Lotes = ({ search }: { readonly search: string }) => {
  const { sesion } = useSesion()
  const pagina = Math.max(1, Number(new URLSearchParams(search).get("pagina")) || 1)
  const [rows, setRows] = useState<ReadonlyArray<LoteSummary> | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setRows(null)
    setError(null)
    sw.lotes.list({ limit: PAGE + 1, offset: (pagina - 1) * PAGE }).then(
      (page) => setRows(page),
      (e) => setError(errorText(e))
    )
  }, [pagina])
  const shown = rows?.slice(0, PAGE) ?? []
  const more = (rows?.length ?? 0) > PAGE
  return (
    <section>
      <div className="titulo-con-accion">
        <Title>Lotes</Title>
        {sesion.usuario.rol === "lectura" ? null : (
          <Link to="/lotes/nuevo" className="boton">
            Crear lote
          </Link>
        )}
      </div>
      <Alerta error={error} />
      {rows === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : shown.length === 0 ? (
        <p>Aún no hay lotes. Crea uno desde un archivo CSV o Excel.</p>
      ) : (
        <table className="tabla">
          <caption className="oculto">Lotes, del más reciente al más antiguo</caption>
          <thead>
            <tr>
              <th scope="col">Nombre</th>
              <th scope="col">Links</th>
              <th scope="col">Pagado</th>
              <th scope="col">Abiertos</th>
              <th scope="col">Creado</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((lote) => (
              <tr key={lote.id}>
                <td data-titulo="Nombre">
                  <Link to={`/lotes/${lote.id}`}>{lote.nombre ?? "Lote sin nombre"}</Link>
                </td>
                <td data-titulo="Links">{totalLinks(lote).toLocaleString("es-VE")}</td>
                <td data-titulo="Pagado">
                  {bolivares(lote.monto_pagado)} de {bolivares(lote.monto_total)}
                </td>
                <td data-titulo="Abiertos">{lote.abiertos.toLocaleString("es-VE")}</td>
                <td data-titulo="Creado">{fechaHora(lote.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Paginas pagina={pagina} more={more} go={(n) => navigate(`/lotes?pagina=${n}`)} />
    </section>
  )
}

interface Leido {
  readonly archivo: string
  readonly lectura: LoteArchivo
  /** The run's id: batch and item idempotency keys derive from it, so a retry creates nothing twice. */
  readonly corrida: string
}

/** The checked file: counts, the rows with errors, what will be created. */
const Vista = ({ leido }: { readonly leido: Leido }) => {
  const filas = leido.lectura.filas
  const malas = filas.filter((f) => f.errores !== undefined)
  const buenas = filas.length - malas.length
  const monto = filas.reduce((sum, f) => sum + (f.item?.monto ?? 0), 0)
  const lotes = Math.ceil(buenas / LOTE_MAX_ITEMS)
  return (
    <div className="vista-previa">
      <h2>Vista previa de {leido.archivo}</h2>
      <dl className="cifras">
        <div>
          <dt>Filas leídas</dt>
          <dd>{filas.length.toLocaleString("es-VE")}</dd>
        </div>
        <div>
          <dt>Válidas</dt>
          <dd>{buenas.toLocaleString("es-VE")}</dd>
        </div>
        <div>
          <dt>Con errores</dt>
          <dd>{malas.length.toLocaleString("es-VE")}</dd>
        </div>
        <div>
          <dt>Monto de las válidas</dt>
          <dd>{bolivares(Math.round(monto * 100) / 100)}</dd>
        </div>
      </dl>
      {malas.length === 0 ? (
        <p>Todas las filas están bien.</p>
      ) : (
        <>
          <p>
            {cantidad(
              malas.length,
              "fila tiene errores y no se creará",
              "filas tienen errores y no se crearán"
            )}
            . Corrígelas en tu archivo y súbelas en otro lote.
          </p>
          <table className="tabla errores-filas">
            <caption>Filas con errores</caption>
            <thead>
              <tr>
                <th scope="col">Fila</th>
                <th scope="col">Errores</th>
              </tr>
            </thead>
            <tbody>
              {malas.slice(0, 200).map((f) => (
                <tr key={f.fila}>
                  <td data-titulo="Fila">{f.fila}</td>
                  <td data-titulo="Errores">{f.errores?.join(". ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {malas.length > 200 ? <p>Se muestran las primeras 200 filas con errores.</p> : null}
        </>
      )}
      {buenas > LOTE_MAX_ITEMS ? (
        <p>
          Un lote admite hasta {LOTE_MAX_ITEMS} links: se crearán {cantidad(lotes, "lote", "lotes")}, uno tras
          otro.
        </p>
      ) : null}
    </div>
  )
}

export const LoteNuevo = () => {
  const [leido, setLeido] = useState<Leido | null>(null)
  const [leyendo, setLeyendo] = useState(false)
  const [nombre, setNombre] = useState("")
  const [horas, setHoras] = useState("24")
  const [error, setError] = useState<string | null>(null)
  const [progreso, setProgreso] = useState<{ readonly hechos: number; readonly total: number } | null>(null)
  const [creados, setCreados] = useState<ReadonlyArray<ResultRow> | null>(null)
  const [lotes, setLotes] = useState<ReadonlyArray<Lote>>([])

  const elegir = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    setLeido(null)
    setError(null)
    setCreados(null)
    setLotes([])
    setProgreso(null)
    if (file === undefined) return
    setLeyendo(true)
    try {
      let lectura: LoteArchivo
      if (/\.xlsx$/i.test(file.name)) {
        // The .xlsx reader is its own chunk: only merchants who pick an Excel file load it.
        const { readXlsx } = await import("../xlsx.js")
        lectura = readRows(await readXlsx(await file.arrayBuffer()))
      } else if (/\.(csv|txt)$/i.test(file.name) || file.type === "text/csv") {
        lectura = readCsv(await file.text())
      } else {
        setError("Elige un archivo .csv o .xlsx.")
        return
      }
      if (lectura.error !== undefined) {
        setError(lectura.error)
        return
      }
      setLeido({ archivo: file.name, lectura, corrida: randomId() })
      setNombre(file.name.replace(/\.[^.]+$/, "").slice(0, 140))
    } catch (e) {
      setError(`No se pudo leer el archivo: ${e instanceof Error ? e.message : String(e)}.`)
    } finally {
      setLeyendo(false)
    }
  }

  const crear = async (event: FormEvent) => {
    event.preventDefault()
    if (leido === null) return
    const partes = chunks(leido.lectura.filas)
    const total = partes.reduce((n, p) => n + p.length, 0)
    if (total === 0) {
      setError("No hay filas válidas que crear.")
      return
    }
    setError(null)
    setProgreso({ hechos: 0, total })
    const hechos: Array<ResultRow> = []
    const listos: Array<Lote> = []
    try {
      for (const [index, parte] of partes.entries()) {
        const items: Array<LoteFilaItem> = parte.map(({ fila, item }) => ({
          ...item,
          idempotency_key: item.idempotency_key ?? `${leido.corrida}-${fila}`
        }))
        const suffix = partes.length > 1 ? ` (${index + 1} de ${partes.length})` : ""
        const lote = await sw.lotes.create({
          items,
          expira_horas: Number(horas),
          idempotency_key: `${leido.corrida}-${index}`,
          ...(nombre.trim() === ""
            ? {}
            : { nombre: `${nombre.trim().slice(0, 140 - suffix.length)}${suffix}` })
        })
        const byKey = new Map(lote.items.map((item) => [item.idempotency_key, item]))
        parte.forEach(({ fila }, i) => {
          const item = byKey.get(items[i]?.idempotency_key ?? "")
          if (item !== undefined) hechos.push([fila, lote, item])
        })
        listos.push(lote)
        setProgreso({ hechos: hechos.length, total })
      }
      setCreados(hechos)
    } catch (e) {
      setError(
        `${errorText(e)}${listos.length > 0 ? ` Se crearon ${cantidad(listos.length, "lote", "lotes")} antes del error; al reintentar no se repiten.` : ""}`
      )
    } finally {
      setLotes(listos)
    }
  }

  const corriendo = progreso !== null && creados === null && error === null
  return (
    <section>
      <Title>Crear lote</Title>
      <p>
        <Link to="/lotes">← Volver a los lotes</Link>
      </p>
      <div className="tarjeta">
        <p id="formato">
          Un archivo CSV o Excel (.xlsx) con una fila de encabezados: <code>monto</code> y{" "}
          <code>concepto</code> (obligatorias), y si quieres <code>referencia</code>, <code>nombre</code>,{" "}
          <code>telefono</code> y <code>clave</code> (clave de idempotencia). Montos como 1.234,56. Nada se
          crea hasta que revises la vista previa.
        </p>
        <div className="campo">
          <label htmlFor="archivo">Archivo</label>
          <input
            id="archivo"
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-describedby="formato"
            disabled={corriendo}
            onChange={elegir}
          />
        </div>
        {leyendo ? <p role="status">Leyendo el archivo…</p> : null}
      </div>
      <Alerta error={error} />
      {leido === null ? null : <Vista leido={leido} />}
      {leido === null || creados !== null ? null : (
        <form className="tarjeta" onSubmit={crear} aria-label="Crear los links del lote">
          <div className="campo">
            <label htmlFor="lote-nombre">Nombre del lote</label>
            <input
              id="lote-nombre"
              maxLength={140}
              value={nombre}
              onChange={(e) => setNombre(e.target.value)}
            />
          </div>
          <div className="campo">
            <label htmlFor="lote-horas">Los links vencen en</label>
            <select id="lote-horas" value={horas} onChange={(e) => setHoras(e.target.value)}>
              <option value="24">24 horas</option>
              <option value="72">3 días</option>
              <option value="168">7 días</option>
              <option value="720">30 días</option>
            </select>
          </div>
          <button type="submit" disabled={corriendo || chunks(leido.lectura.filas).length === 0}>
            {corriendo
              ? "Creando…"
              : `Crear ${cantidad(
                  leido.lectura.filas.filter((f) => f.item !== undefined).length,
                  "link",
                  "links"
                )}`}
          </button>
        </form>
      )}
      {progreso === null ? null : (
        <div className="progreso">
          <label htmlFor="lote-progreso">Links creados</label>
          <progress id="lote-progreso" max={progreso.total} value={progreso.hechos} />
          <p role="status">
            {progreso.hechos.toLocaleString("es-VE")} de {progreso.total.toLocaleString("es-VE")} links
            creados
          </p>
        </div>
      )}
      {creados === null ? null : (
        <div className="tarjeta">
          <h2>Listo</h2>
          <p>
            Se crearon {cantidad(creados.length, "link", "links")} en{" "}
            {cantidad(lotes.length, "lote", "lotes")}.
          </p>
          <ul className="lista-simple">
            {lotes.map((lote) => (
              <li key={lote.id}>
                <Link to={`/lotes/${lote.id}`}>{lote.nombre ?? "Lote sin nombre"}</Link> ·{" "}
                {cantidad(lote.items.length, "link", "links")} · {bolivares(lote.monto_total)}
              </li>
            ))}
          </ul>
          <button
            type="button"
            onClick={() =>
              descargar(
                nombreArchivo(leido?.archivo.replace(/\.[^.]+$/, "") ?? "lote"),
                resultadoCsv(creados)
              )
            }
          >
            Descargar resultado (CSV)
          </button>
        </div>
      )}
    </section>
  )
}

export const LoteDetalle = ({ id }: { readonly id: string }) => {
  const { sesion } = useSesion()
  const [lote, setLote] = useState<Lote | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const [pagina, setPagina] = useState(1)
  useEffect(() => {
    sw.lotes.get(id).then(setLote, (e) => setError(errorText(e)))
  }, [id])
  const cancelar = async () => {
    if (!window.confirm("¿Cancelar los links pendientes de este lote? Los pagados y en curso no cambian."))
      return
    setError(null)
    try {
      const result = await sw.lotes.cancel(id)
      setLote(result.lote)
      setAviso(
        `Se cancelaron ${cantidad(result.cancelados, "link", "links")}; ${cantidad(result.no_cancelables, "no se podía", "no se podían")} cancelar.`
      )
    } catch (e) {
      setError(errorText(e))
    }
  }
  const items = lote?.items ?? []
  const paginas = Math.max(1, Math.ceil(items.length / ITEMS_PAGE))
  const shown = items.slice((pagina - 1) * ITEMS_PAGE, pagina * ITEMS_PAGE)
  const pendientes = lote?.por_estado.pendiente ?? 0
  return (
    <section>
      <Title>Detalle del lote</Title>
      <p>
        <Link to="/lotes">← Volver a los lotes</Link>
      </p>
      <Alerta error={error} />
      <p role="status" className="aviso">
        {aviso ?? ""}
      </p>
      {lote === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : (
        <>
          <dl className="datos">
            <div>
              <dt>Nombre</dt>
              <dd>{lote.nombre ?? "Lote sin nombre"}</dd>
            </div>
            <div>
              <dt>Links</dt>
              <dd>{items.length.toLocaleString("es-VE")}</dd>
            </div>
            <div>
              <dt>Pagado</dt>
              <dd>
                {bolivares(lote.monto_pagado)} de {bolivares(lote.monto_total)} (
                {lote.pagados.toLocaleString("es-VE")} pagados)
              </dd>
            </div>
            <div>
              <dt>Abiertos</dt>
              <dd>{lote.abiertos.toLocaleString("es-VE")}</dd>
            </div>
            <div>
              <dt>Por estado</dt>
              <dd className="por-estado">
                {Object.entries(lote.por_estado)
                  .filter(([, n]) => n > 0)
                  .map(([estado, n]) => (
                    <span key={estado}>
                      <EstadoChip estado={estado} /> {n.toLocaleString("es-VE")}
                    </span>
                  ))}
              </dd>
            </div>
            <div>
              <dt>Creado</dt>
              <dd>{fechaHora(lote.created_at)}</dd>
            </div>
            <div>
              <dt>Vence</dt>
              <dd>{fechaHora(lote.expires_at)}</dd>
            </div>
            <div>
              <dt>Modo</dt>
              <dd>{lote.mode === "test" ? "Prueba" : "Live"}</dd>
            </div>
          </dl>
          <div className="acciones">
            <button
              type="button"
              className="secundario"
              onClick={() =>
                descargar(
                  nombreArchivo(lote.nombre ?? lote.id),
                  resultadoCsv(lote.items.map((item, i) => [i + 1, lote, item]))
                )
              }
            >
              Descargar links (CSV)
            </button>
            {pendientes > 0 && sesion.usuario.rol !== "lectura" ? (
              <button type="button" className="peligro" onClick={cancelar}>
                Cancelar {cantidad(pendientes, "link pendiente", "links pendientes")}
              </button>
            ) : null}
          </div>
          <table className="tabla">
            <caption className="oculto">Links del lote</caption>
            <thead>
              <tr>
                <th scope="col">Concepto</th>
                <th scope="col">Cliente</th>
                <th scope="col">Monto</th>
                <th scope="col">Estado</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((item) => (
                <tr key={item.link_id}>
                  <td data-titulo="Concepto">
                    <Link to={`/links/${item.link_id}`}>{item.concepto}</Link>
                    {item.referencia_externa === null ? null : (
                      <span className="nota"> · {item.referencia_externa}</span>
                    )}
                  </td>
                  <td data-titulo="Cliente">{item.cliente?.nombre ?? item.cliente?.telefono ?? "—"}</td>
                  <td data-titulo="Monto">{bolivares(item.monto)}</td>
                  <td data-titulo="Estado">
                    <EstadoChip estado={item.estado} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {paginas > 1 ? (
            <Paginas
              pagina={pagina}
              more={pagina < paginas}
              go={setPagina}
              de={paginas}
              label="Páginas de links"
            />
          ) : null}
        </>
      )}
    </section>
  )
}
