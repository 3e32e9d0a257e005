/**
 * Cuentas para repartos (issue 33): the split accounts the merchant approves, up to 20. A link's
 * `split` may name only these (SPEC's `split_cuenta_no_preaprobada`). Every role sees the list;
 * the owner adds and removes. The server checks each account (bank, check digits, holder id) and
 * refuses one it knows in another holder's name; its words are shown as they come.
 */
import { banks, type CuentaAprobada, type CuentasAprobadas as Lista, SwitchError } from "@switch/sdk"
import { type FormEvent, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title, useSesion } from "../context.js"

const CAMPOS: Record<string, string> = {
  valor: "Número",
  banco: "Banco",
  identificacion: "Cédula o RIF del titular",
  tipo_doc: "Tipo de documento",
  nombre: "Nombre del titular",
  tipo: "Tipo"
}

/** The service's refusal in words, each field by its label. */
const enPalabras = (error: unknown): string => {
  if (error instanceof SwitchError) {
    const detail = (error as { detail?: unknown }).detail
    if (typeof detail === "object" && detail !== null && "fieldErrors" in detail) {
      const fields = (detail as { fieldErrors: Record<string, ReadonlyArray<string>> }).fieldErrors
      return Object.entries(fields)
        .map(([field, messages]) => `${CAMPOS[field] ?? field}: ${messages.join(", ")}`)
        .join(". ")
    }
  }
  return errorText(error)
}

const nombreBanco = (codigo: string) => banks.find((b) => b.codigo === codigo)?.nombre ?? codigo

const describir = (c: CuentaAprobada) =>
  c.tipo === "cuenta"
    ? `Cuenta ${c.valor.replace(/(\d{4})(\d{4})(\d{2})(\d{10})/, "$1-$2-$3-$4")}`
    : `Pago móvil ${c.valor}`

export const CuentasAprobadas = () => {
  const { sesion } = useSesion()
  const owner = sesion.usuario.rol === "propietario"
  const [lista, setLista] = useState<Lista | null>(null)
  const [tipo, setTipo] = useState<"cuenta" | "telefono">("cuenta")
  const [valor, setValor] = useState("")
  const [banco, setBanco] = useState("")
  const [identificacion, setIdentificacion] = useState("")
  const [nombre, setNombre] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState<string | null>(null)
  const [enviando, setEnviando] = useState(false)

  useEffect(() => {
    sw.cuentasAprobadas.list().then(setLista, (e) => setError(enPalabras(e)))
  }, [])

  const agregar = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setAviso(null)
    if (banco === "") {
      setError("Elige el banco de la cuenta.")
      return
    }
    setEnviando(true)
    try {
      const antes = lista?.data.length ?? 0
      const nueva = await sw.cuentasAprobadas.add({
        tipo,
        valor: valor.trim(),
        banco,
        identificacion: identificacion.trim(),
        nombre: nombre.trim()
      })
      setLista(nueva)
      setAviso(
        nueva.data.length > antes
          ? "Listo: la cuenta quedó aprobada para repartos."
          : "Esa cuenta ya estaba aprobada."
      )
      setValor("")
      setIdentificacion("")
      setNombre("")
    } catch (e) {
      setError(enPalabras(e))
    } finally {
      setEnviando(false)
    }
  }

  const quitar = async (cuenta: CuentaAprobada) => {
    setError(null)
    setAviso(null)
    try {
      setLista(await sw.cuentasAprobadas.remove(cuenta.id))
      setAviso(`Listo: quitaste ${describir(cuenta)} de ${cuenta.nombre}.`)
    } catch (e) {
      setError(enPalabras(e))
    }
  }

  const llena = lista !== null && lista.data.length >= lista.max

  return (
    <section className="cuentas-aprobadas">
      <Title>Cuentas para repartos</Title>
      <p className="nota">
        Un link con reparto (split) solo puede enviar dinero a estas cuentas. Hasta {lista?.max ?? 20}. Cada
        cuenta debe estar a nombre de la cédula o RIF que escribas.
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p role="status" className="aviso">
        {aviso ?? ""}
      </p>
      {lista === null ? (
        <p>Cargando…</p>
      ) : (
        <>
          <h2>
            Aprobadas ({lista.data.length} de {lista.max})
          </h2>
          {lista.data.length === 0 ? (
            <p>Todavía no hay cuentas aprobadas.</p>
          ) : (
            <ul className="cuentas-lista">
              {lista.data.map((c) => (
                <li key={c.id} className="tarjeta">
                  <p>
                    <strong>{c.nombre}</strong> · {c.identificacion}
                  </p>
                  <p>
                    {describir(c)} · {nombreBanco(c.banco)}
                  </p>
                  {owner ? (
                    <button
                      type="button"
                      className="secundario"
                      aria-label={`Quitar ${describir(c)} de ${c.nombre}`}
                      onClick={() => quitar(c)}
                    >
                      Quitar
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {!owner ? (
            <p>Solo el propietario del comercio agrega o quita cuentas.</p>
          ) : llena ? (
            <p>Ya tienes {lista.max} cuentas: quita una para agregar otra.</p>
          ) : (
            <form onSubmit={agregar} className="tarjeta angosta" aria-labelledby="t-cuenta-nueva">
              <h2 id="t-cuenta-nueva">Agregar una cuenta</h2>
              <fieldset>
                <legend>Tipo</legend>
                <label>
                  <input
                    type="radio"
                    name="tipo"
                    checked={tipo === "cuenta"}
                    onChange={() => setTipo("cuenta")}
                  />{" "}
                  Cuenta bancaria (20 dígitos)
                </label>
                <label>
                  <input
                    type="radio"
                    name="tipo"
                    checked={tipo === "telefono"}
                    onChange={() => setTipo("telefono")}
                  />{" "}
                  Pago móvil (teléfono)
                </label>
              </fieldset>
              <div className="campo">
                <label htmlFor="cuenta-banco">Banco</label>
                <select id="cuenta-banco" required value={banco} onChange={(e) => setBanco(e.target.value)}>
                  <option value="">Elige el banco</option>
                  {banks.map((b) => (
                    <option key={b.codigo} value={b.codigo}>
                      {b.codigo} · {b.nombre}
                    </option>
                  ))}
                </select>
              </div>
              <div className="campo">
                <label htmlFor="cuenta-valor">{tipo === "cuenta" ? "Número de cuenta" : "Teléfono"}</label>
                <input
                  id="cuenta-valor"
                  required
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder={tipo === "cuenta" ? "0102-0000-00-0000000000" : "0414-1234567"}
                  value={valor}
                  onChange={(e) => setValor(e.target.value)}
                />
              </div>
              <div className="campo">
                <label htmlFor="cuenta-id">Cédula o RIF del titular</label>
                <input
                  id="cuenta-id"
                  required
                  autoComplete="off"
                  placeholder="V-12345678"
                  value={identificacion}
                  onChange={(e) => setIdentificacion(e.target.value)}
                />
              </div>
              <div className="campo">
                <label htmlFor="cuenta-nombre">Nombre del titular</label>
                <input
                  id="cuenta-nombre"
                  required
                  maxLength={40}
                  value={nombre}
                  onChange={(e) => setNombre(e.target.value)}
                />
              </div>
              <button type="submit" disabled={enviando}>
                {enviando ? "Aprobando…" : "Aprobar cuenta"}
              </button>
            </form>
          )}
        </>
      )}
    </section>
  )
}
