/**
 * Links: the list (filters, amount range, date presets and order in the address; its total
 * count; loaded as it scrolls, windowed; each link's address to copy), creating one (QR and
 * WhatsApp), its detail, cancelling.
 */

import type { Link as LinkData } from "@switch/sdk"
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react"
import { errorText, sw } from "../api.js"
import { useCambios } from "../cambios.js"
import { Title, useSesion } from "../context.js"
import { enUso, useFiltrosPlegables } from "../FiltrosPlegables.js"
import { bolivares, fechaHora, miles, parseBolivares } from "../format.js"
import {
  ESTADO_LABEL,
  ESTADOS,
  type Estado,
  fromSearch,
  type LinkFilters,
  type Orden,
  REEMBOLSO_LABEL,
  REEMBOLSOS,
  toListParams,
  toSearch
} from "../linkFilters.js"
import { Link, navigate } from "../router.js"
import { VirtualTable } from "../VirtualTable.js"
import { vencimiento } from "../vencimiento.js"
import { errorDolares, PrecioDolares } from "./Dolares.js"
import { LinkTimeline } from "./LinkTimeline.js"
import { Copiar, OrdenarPor, OrdenCampo, PresetsFecha } from "./ListaControles.js"
import { type Fila, MetadataRows, metadataDe } from "./MetadataRows.js"
import { Reembolsos } from "./Reembolsos.js"
import { Reparto, type RepartoData, repartoDe } from "./Reparto.js"

const EstadoChip = ({ estado }: { readonly estado: string }) => (
  <span className={`estado estado-${estado}`}>{ESTADO_LABEL[estado as Estado] ?? estado}</span>
)

/**
 * A link's state as the merchant reads it: a paid link money went back from says so (issue 45),
 * with what went back and what is left unless `sinMontos`.
 */
const EstadoLink = ({
  link,
  sinMontos = false
}: {
  readonly link: LinkData
  readonly sinMontos?: boolean
}) => {
  const r = link.reembolso
  if (r === undefined) return <EstadoChip estado={link.estado} />
  return (
    <span>
      <span className={`estado estado-${r.estado}`}>{REEMBOLSO_LABEL[r.estado]}</span>
      {sinMontos ? null : (
        <span className="nota reembolso-montos">
          {" "}
          Devuelto {bolivares(r.monto_devuelto)}
          {r.monto_restante > 0 ? ` · queda ${bolivares(r.monto_restante)}` : ""}
        </span>
      )}
    </span>
  )
}

/** States where a payment was made or is being confirmed: the detail shows its refunds. */
const CON_PAGO = new Set(["pagado", "cobrando", "procesando", "revision"])

/** Links are loaded this many at a time, as the windowed list scrolls near the last one. */
const CHUNK = 100

/** The columns that sort, and the orders (descending, ascending) each toggles between. */
const ORDEN_DE: Readonly<Record<string, readonly [Orden, Orden]>> = {
  Monto: ["monto_desc", "monto_asc"],
  Creado: ["reciente", "antiguo"]
}
const DIRECCION: Readonly<Record<Orden, "ascending" | "descending">> = {
  reciente: "descending",
  antiguo: "ascending",
  monto_desc: "descending",
  monto_asc: "ascending"
}

export const Links = ({ search }: { readonly search: string }) => {
  const { sesion } = useSesion()
  const filters = fromSearch(search)
  const plegable = useFiltrosPlegables(enUso(filters))
  const [draft, setDraft] = useState<LinkFilters>(filters)
  const [rows, setRows] = useState<ReadonlyArray<LinkData> | null>(null)
  const [total, setTotal] = useState<number | null>(null)
  const [done, setDone] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const loading = useRef(false)
  const generation = useRef(0)
  const key = toSearch({ ...filters, pagina: 1 })

  const loadFrom = useCallback(async (query: string, offset: number, gen: number) => {
    if (loading.current) return
    loading.current = true
    try {
      const page = await sw.links.list({
        ...toListParams({ ...fromSearch(query), pagina: 1 }),
        limit: CHUNK,
        offset
      })
      if (gen !== generation.current) return
      setRows((old) => [...(offset === 0 ? [] : (old ?? [])), ...page])
      setDone(page.length < CHUNK)
    } catch (e) {
      if (gen === generation.current) setError(errorText(e))
    } finally {
      loading.current = false
    }
  }, [])

  useEffect(() => {
    generation.current += 1
    setDraft(fromSearch(key))
    setRows(null)
    setDone(false)
    setError(null)
    loading.current = false
    void loadFrom(key, 0, generation.current)
    setTotal(null)
    const gen = generation.current
    const { limit: _l, offset: _o, orden: _d, ...params } = toListParams({ ...fromSearch(key), pagina: 1 })
    sw.links.total(params).then(
      (r) => {
        if (gen === generation.current) setTotal(r.total)
      },
      () => undefined
    )
  }, [key, loadFrom])

  // A change to a link reads the loaded rows again, in place (the list keeps its length).
  const rowCount = rows?.length ?? 0
  const refresh = useCallback(async () => {
    const gen = generation.current
    try {
      const page = await sw.links.list({
        ...toListParams({ ...fromSearch(key), pagina: 1 }),
        limit: Math.min(200, Math.max(CHUNK, rowCount)),
        offset: 0
      })
      if (gen === generation.current && !loading.current) setRows(page)
    } catch {}
  }, [key, rowCount])
  useCambios(
    () => void refresh(),
    (cambio) => cambio.link_id !== null
  )

  const more = useCallback(() => {
    if (!done && rows !== null && error === null) void loadFrom(key, rows.length, generation.current)
  }, [done, rows, error, key, loadFrom])

  const apply = (event: FormEvent) => {
    event.preventDefault()
    navigate(`/links${toSearch({ ...draft, pagina: 1 })}`)
  }
  const ordenar = (columna: string) => {
    const [desc, asc] = ORDEN_DE[columna] ?? ["reciente", "antiguo"]
    navigate(`/links${toSearch({ ...filters, orden: filters.orden === desc ? asc : desc, pagina: 1 })}`)
  }
  const sortedBy = (columna: string) =>
    ORDEN_DE[columna]?.includes(filters.orden) === true ? DIRECCION[filters.orden] : undefined

  return (
    <section>
      <div className="titulo-con-accion">
        <Title>Links</Title>
        {sesion.usuario.rol === "lectura" ? null : (
          <Link to="/links/nuevo" className="boton">
            Crear link
          </Link>
        )}
        {sesion.usuario.rol === "propietario" ? (
          <Link to={`/acciones-masivas${key}`} className="boton secundario">
            Acciones masivas con estos filtros
          </Link>
        ) : null}
      </div>
      {plegable.boton}
      <form className={plegable.clase} id={plegable.id} onSubmit={apply} aria-label="Filtrar links">
        <div className="campo">
          <label htmlFor="f-estado">Estado</label>
          <select
            id="f-estado"
            value={draft.estado}
            onChange={(e) => setDraft({ ...draft, estado: e.target.value as LinkFilters["estado"] })}
          >
            <option value="">Todos</option>
            {ESTADOS.map((estado) => (
              <option key={estado} value={estado}>
                {ESTADO_LABEL[estado]}
              </option>
            ))}
            {REEMBOLSOS.map((estado) => (
              <option key={estado} value={estado}>
                {REEMBOLSO_LABEL[estado]}
              </option>
            ))}
          </select>
        </div>
        <div className="campo">
          <label htmlFor="f-q">Buscar</label>
          <input
            id="f-q"
            type="search"
            value={draft.q}
            placeholder="Concepto o id"
            onChange={(e) => setDraft({ ...draft, q: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="f-desde">Desde</label>
          <input
            id="f-desde"
            type="date"
            value={draft.desde}
            onChange={(e) => setDraft({ ...draft, desde: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="f-hasta">Hasta</label>
          <input
            id="f-hasta"
            type="date"
            value={draft.hasta}
            onChange={(e) => setDraft({ ...draft, hasta: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="f-min">Monto mínimo (Bs)</label>
          <input
            id="f-min"
            inputMode="decimal"
            value={draft.min}
            onChange={(e) => setDraft({ ...draft, min: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="f-max">Monto máximo (Bs)</label>
          <input
            id="f-max"
            inputMode="decimal"
            value={draft.max}
            onChange={(e) => setDraft({ ...draft, max: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="f-origen">Origen</label>
          <select
            id="f-origen"
            value={draft.origen}
            onChange={(e) => setDraft({ ...draft, origen: e.target.value })}
          >
            <option value="">Todos</option>
            <option value="panel">Panel</option>
            <option value="api">API</option>
            <option value="mi_pagina">Mi página</option>
            <option value="boton">Botón</option>
            <option value="whatsapp">WhatsApp</option>
          </select>
        </div>
        <OrdenCampo id="f-orden" value={draft.orden} onChange={(orden) => setDraft({ ...draft, orden })} />
        <PresetsFecha onElegir={(dias) => navigate(`/links${toSearch({ ...draft, ...dias, pagina: 1 })}`)} />
        <button type="submit">Filtrar</button>
      </form>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {rows === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : rows.length === 0 ? (
        <p>No hay links con estos filtros.</p>
      ) : (
        <>
          <p className="nota" id="links-total">
            {total === null
              ? `${miles(rows.length)} link${rows.length === 1 ? "" : "s"}${done ? "" : " cargados"}`
              : `${miles(total)} link${total === 1 ? "" : "s"}`}
            {done || total === null ? "" : `; se muestran ${miles(rows.length)}, bajando se cargan más`}.
          </p>
          <VirtualTable
            caption="Links"
            columns={["Concepto", "Monto", "Estado", "Creado"]}
            header={(columna) =>
              ORDEN_DE[columna] === undefined ? (
                columna
              ) : (
                <OrdenarPor columna={columna} activa={sortedBy(columna)} onOrdenar={() => ordenar(columna)} />
              )
            }
            sortedBy={sortedBy}
            rows={rows}
            rowKey={(link) => link.id}
            onNearEnd={more}
            cells={(link) => (
              <>
                <td data-titulo="Concepto">
                  <Link to={`/links/${link.id}`}>{link.concepto ?? "Sin concepto"}</Link>{" "}
                  <Copiar texto={link.url} que={`la dirección de ${link.concepto ?? "este link"}`} />
                </td>
                <td data-titulo="Monto">{bolivares(link.monto)}</td>
                <td data-titulo="Estado">
                  <EstadoLink link={link} />
                </td>
                <td data-titulo="Creado">{fechaHora(link.created_at)}</td>
              </>
            )}
          />
        </>
      )}
    </section>
  )
}

export const LinkNuevo = () => {
  const [moneda, setMoneda] = useState<"VES" | "USD">("VES")
  const [monto, setMonto] = useState("")
  const [concepto, setConcepto] = useState("")
  const [horas, setHoras] = useState("24")
  const [exacta, setExacta] = useState("")
  const [alPagar, setAlPagar] = useState("")
  const [sinPagar, setSinPagar] = useState("")
  const [filas, setFilas] = useState<ReadonlyArray<Fila>>([])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { sesion } = useSesion()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const amount = parseBolivares(monto)
    if (amount === undefined || amount <= 0) {
      setError(
        moneda === "USD"
          ? "Escribe el precio en dólares, por ejemplo 12,50."
          : "Escribe un monto en bolívares, por ejemplo 1.234,56."
      )
      return
    }
    const vence = vencimiento(horas, exacta)
    if (typeof vence === "string") {
      setError(vence)
      return
    }
    const metadata = metadataDe(filas)
    if (typeof metadata === "string") {
      setError(metadata)
      return
    }
    setBusy(true)
    setError(null)
    try {
      const rest = {
        concepto,
        ...vence,
        ...(alPagar.trim() === "" ? {} : { success_url: alPagar.trim() }),
        ...(sinPagar.trim() === "" ? {} : { failure_url: sinPagar.trim() }),
        ...(Object.keys(metadata).length === 0 ? {} : { metadata })
      }
      // A dollar price is converted by Switch at the BCV rate of this moment.
      const link =
        moneda === "USD"
          ? await sw.links.createEnDolares({ monto_usd: amount, ...rest })
          : await sw.links.create({ monto: amount, ...rest })
      navigate(`/links/${link.id}`)
    } catch (e) {
      setError(moneda === "USD" ? errorDolares(e) : errorText(e))
    } finally {
      setBusy(false)
    }
  }
  if (sesion.usuario.rol === "lectura")
    return (
      <section>
        <Title>Crear link</Title>
        <p>Tu usuario es de solo lectura: no crea links.</p>
      </section>
    )
  return (
    <section className="tarjeta angosta">
      <Title>Crear link</Title>
      <form onSubmit={submit}>
        <div className="campo">
          <label htmlFor="moneda">Moneda del precio</label>
          <select
            id="moneda"
            value={moneda}
            onChange={(e) => setMoneda(e.target.value === "USD" ? "USD" : "VES")}
          >
            <option value="VES">Bolívares (Bs)</option>
            <option value="USD">Dólares (US$), a la tasa BCV del momento</option>
          </select>
        </div>
        <div className="campo">
          <label htmlFor="monto">{moneda === "USD" ? "Precio (US$)" : "Monto (Bs)"}</label>
          <input
            id="monto"
            inputMode="decimal"
            required
            value={monto}
            placeholder="1.234,56"
            onChange={(e) => setMonto(e.target.value)}
          />
        </div>
        <div className="campo">
          <label htmlFor="concepto">Concepto</label>
          <input
            id="concepto"
            required
            maxLength={200}
            value={concepto}
            onChange={(e) => setConcepto(e.target.value)}
          />
        </div>
        <div className="campo">
          <label htmlFor="horas">Vence en</label>
          <select id="horas" value={horas} onChange={(e) => setHoras(e.target.value)}>
            <option value="1">1 hora</option>
            <option value="24">24 horas</option>
            <option value="72">3 días</option>
            <option value="168">7 días</option>
            <option value="exacta">En una fecha y hora exactas</option>
          </select>
        </div>
        {horas !== "exacta" ? null : (
          <div className="campo">
            <label htmlFor="vence-exacta">Fecha y hora de vencimiento (hora de Caracas)</label>
            <input
              id="vence-exacta"
              type="datetime-local"
              required
              value={exacta}
              onChange={(e) => setExacta(e.target.value)}
            />
          </div>
        )}
        <div className="campo">
          <label htmlFor="url-pagado">Al pagar, volver a (https, opcional)</label>
          <input
            id="url-pagado"
            type="url"
            pattern="https://.*"
            maxLength={400}
            placeholder="https://mitienda.com/gracias"
            value={alPagar}
            onChange={(e) => setAlPagar(e.target.value)}
          />
        </div>
        <div className="campo">
          <label htmlFor="url-no-pagado">Si no paga, volver a (https, opcional)</label>
          <input
            id="url-no-pagado"
            type="url"
            pattern="https://.*"
            maxLength={400}
            placeholder="https://mitienda.com/carrito"
            value={sinPagar}
            onChange={(e) => setSinPagar(e.target.value)}
          />
        </div>
        <MetadataRows filas={filas} onChange={setFilas} />
        {error === null ? null : (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Creando…" : "Crear link"}
        </button>
      </form>
    </section>
  )
}

export const LinkDetalle = ({ id }: { readonly id: string }) => {
  const { sesion } = useSesion()
  const [link, setLink] = useState<LinkData | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    sw.links.get(id).then(setLink, (e) => setError(errorText(e)))
  }, [id])
  // This link paid, settled or refunded elsewhere: read it, its refunds and its history again.
  useCambios(
    () => {
      sw.links.get(id).then(setLink, () => {})
      setVersion((v) => v + 1)
    },
    (cambio) => cambio.link_id === id
  )
  const cancelar = async () => {
    if (!window.confirm("¿Cancelar este link? El pagador ya no podrá pagarlo.")) return
    setError(null)
    try {
      await sw.links.cancel(id)
      setLink(await sw.links.get(id))
      setVersion((v) => v + 1)
      setAviso("El link fue cancelado.")
    } catch (e) {
      setError(errorText(e))
    }
  }
  return (
    <section>
      <Title>Detalle del link</Title>
      <p>
        <Link to="/links">← Volver a los links</Link>
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p role="status" className="aviso">
        {aviso ?? ""}
      </p>
      {link === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : (
        <div className="detalle">
          <dl className="datos">
            <div>
              <dt>Concepto</dt>
              <dd>{link.concepto ?? "Sin concepto"}</dd>
            </div>
            <div>
              <dt>Monto</dt>
              <dd>{bolivares(link.monto)}</dd>
            </div>
            <div>
              <dt>Estado</dt>
              <dd>
                <EstadoLink link={link} sinMontos />
              </dd>
            </div>
            {link.reembolso === undefined ? null : (
              <>
                <div>
                  <dt>Devuelto al pagador</dt>
                  <dd>{bolivares(link.reembolso.monto_devuelto)}</dd>
                </div>
                <div>
                  <dt>Queda del pago</dt>
                  <dd>{bolivares(link.reembolso.monto_restante)}</dd>
                </div>
              </>
            )}
            <div>
              <dt>Creado</dt>
              <dd>{fechaHora(link.created_at)}</dd>
            </div>
            {link.expires_at === null ? null : (
              <div>
                <dt>Vence</dt>
                <dd>{fechaHora(link.expires_at)}</dd>
              </div>
            )}
            {link.paid_at === null ? null : (
              <div>
                <dt>Pagado</dt>
                <dd>{fechaHora(link.paid_at)}</dd>
              </div>
            )}
            <div>
              <dt>Modo</dt>
              <dd>{link.mode === "test" ? "Prueba" : "Live"}</dd>
            </div>
            {link.success_url === null ? null : (
              <div>
                <dt>Al pagar vuelve a</dt>
                <dd className="url">{link.success_url}</dd>
              </div>
            )}
            {link.failure_url === null ? null : (
              <div>
                <dt>Si no paga vuelve a</dt>
                <dd className="url">{link.failure_url}</dd>
              </div>
            )}
            {Object.entries(link.metadata ?? {}).map(([clave, valor]) => (
              <div key={`m-${clave}`}>
                <dt>
                  <code>{clave}</code>
                </dt>
                <dd>{String(valor)}</dd>
              </div>
            ))}
            <div>
              <dt>Dirección</dt>
              <dd>
                <a href={link.url} className="url">
                  {link.url}
                </a>
              </dd>
            </div>
          </dl>
          <div className="compartir">
            {link.qr_png === null ? null : (
              <img
                src={link.qr_png}
                width={200}
                height={200}
                alt={`Código QR del link ${link.concepto ?? ""}`}
              />
            )}
            {link.wa_deeplink === null ? null : (
              <a className="boton whatsapp" href={link.wa_deeplink} target="_blank" rel="noopener noreferrer">
                Compartir por WhatsApp
              </a>
            )}
            {link.estado === "pendiente" && sesion.usuario.rol !== "lectura" ? (
              <button type="button" className="peligro" onClick={cancelar}>
                Cancelar link
              </button>
            ) : null}
          </div>
        </div>
      )}
      {link === null || repartoDe(link.reparto) === null ? null : (
        <Reparto reparto={repartoDe(link.reparto) as RepartoData} titulo="Reparto del pago" />
      )}
      {link === null ? null : <PrecioDolares id={link.id} />}
      {link === null || !CON_PAGO.has(link.estado) ? null : (
        <Reembolsos
          linkId={link.id}
          puedeReembolsar={sesion.usuario.rol === "propietario"}
          onCambio={() => setVersion((v) => v + 1)}
        />
      )}
      {link === null ? null : <LinkTimeline id={link.id} version={version} />}
    </section>
  )
}
