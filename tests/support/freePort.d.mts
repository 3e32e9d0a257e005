/** A loopback port free now, below the range of outgoing connections (freePort.mjs). */
export declare const freePort: () => Promise<number>
