// Types for lz4js (pure JavaScript LZ4; it ships none): frame-format compress/decompress, as MCAP's 'lz4' chunks use.
declare module 'lz4js' {
  export function compress(src: Uint8Array, maxSize?: number): Uint8Array;
  export function decompress(src: Uint8Array, maxSize?: number): Uint8Array;
}
