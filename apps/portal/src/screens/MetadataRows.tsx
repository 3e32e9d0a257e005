/**
 * The metadata of a new link as key/value rows (SPEC: up to 20 keys, a key up to 40 characters,
 * a value up to 200); rows with an empty key are left out.
 */

export interface Fila {
  readonly clave: string
  readonly valor: string
}

export const MAX_FILAS = 20

/** The metadata object of the rows, or the reason it is not one. */
export const metadataDe = (filas: ReadonlyArray<Fila>): Record<string, string> | string => {
  const out: Record<string, string> = {}
  for (const fila of filas) {
    const clave = fila.clave.trim()
    if (clave === "") continue
    if (clave in out) return `La clave «${clave}» está repetida.`
    out[clave] = fila.valor
  }
  return out
}

export const MetadataRows = ({
  filas,
  onChange
}: {
  readonly filas: ReadonlyArray<Fila>
  readonly onChange: (filas: ReadonlyArray<Fila>) => void
}) => {
  const set = (i: number, fila: Fila) => onChange(filas.map((f, j) => (j === i ? fila : f)))
  return (
    <fieldset className="metadata">
      <legend>Datos tuyos (metadata, opcional)</legend>
      <p className="nota">Vuelven con el link en la API; no se envían en los avisos.</p>
      {filas.map((fila, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place
        <div className="fila-dato" key={i}>
          <div className="campo">
            <label htmlFor={`dato-clave-${i}`}>Clave {i + 1}</label>
            <input
              id={`dato-clave-${i}`}
              maxLength={40}
              value={fila.clave}
              onChange={(e) => set(i, { ...fila, clave: e.target.value })}
            />
          </div>
          <div className="campo">
            <label htmlFor={`dato-valor-${i}`}>Valor {i + 1}</label>
            <input
              id={`dato-valor-${i}`}
              maxLength={200}
              value={fila.valor}
              onChange={(e) => set(i, { ...fila, valor: e.target.value })}
            />
          </div>
          <button
            type="button"
            className="secundario"
            onClick={() => onChange(filas.filter((_, j) => j !== i))}
          >
            Quitar <span className="oculto">dato {i + 1}</span>
          </button>
        </div>
      ))}
      {filas.length >= MAX_FILAS ? null : (
        <button
          type="button"
          className="secundario"
          onClick={() => onChange([...filas, { clave: "", valor: "" }])}
        >
          Agregar dato
        </button>
      )}
    </fieldset>
  )
}
