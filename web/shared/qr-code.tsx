import { encode } from 'uqr';

/** A QR code drawn as one SVG path (dark modules), with the 4-module quiet zone scanners need. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const qr = encode(text, { ecc: 'M', border: 4 });
  let d = '';
  qr.data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg class="qr" viewBox={`0 0 ${qr.size} ${qr.size}`} role="img" aria-label={label} shape-rendering="crispEdges">
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
