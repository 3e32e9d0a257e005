/** "Anterior / Página n / Siguiente" under a paged list; `de` adds the count of pages when known. */
export const Paginas = ({
  pagina,
  more,
  go,
  de,
  label = "Páginas"
}: {
  readonly pagina: number
  readonly more: boolean
  readonly go: (pagina: number) => void
  readonly de?: number
  readonly label?: string
}) => (
  <nav className="paginas" aria-label={label}>
    <button type="button" className="secundario" disabled={pagina <= 1} onClick={() => go(pagina - 1)}>
      Anterior
    </button>
    <span>
      Página {pagina}
      {de === undefined ? null : ` de ${de}`}
    </span>
    <button type="button" className="secundario" disabled={!more} onClick={() => go(pagina + 1)}>
      Siguiente
    </button>
  </nav>
)
