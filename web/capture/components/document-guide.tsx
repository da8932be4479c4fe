/** Which document the person photographs, and which side of it. */
export type DocumentKind = 'passport' | 'id_card';
export type DocumentSide = 'front' | 'back';

/** The sides to photograph: a passport's photo page carries the zone; an ID card carries it on the back. */
export const SIDES: Record<DocumentKind, DocumentSide[]> = { passport: ['front'], id_card: ['front', 'back'] };

/**
 * Proportions (ICAO 9303): a passport data page is 125 × 88 mm with two zone lines at its foot; an
 * ID card is 85.6 × 54 mm (ID-1) with three zone lines on its back. The guide is drawn in a
 * 100 × 75 box, the camera view's 4:3.
 */
const OUTLINE: Record<DocumentKind, { x: number; y: number; w: number; h: number }> = {
  passport: { x: 8, y: 7.5, w: 84, h: 60 },
  id_card: { x: 8, y: 11, w: 84, h: 53 },
};

/** Where the machine-readable lines go: a shaded band with the lines sketched as rows of chevrons. */
function ZoneBand({ x, y, w, h, rows }: { x: number; y: number; w: number; h: number; rows: number }) {
  const pitch = h / (rows + 0.6);
  return (
    <g class="zone-band">
      <rect x={x} y={y} width={w} height={h} rx="1" fill="#fff" fill-opacity="0.22" stroke="#ffd54f" stroke-width="0.6" />
      {Array.from({ length: rows }, (_, i) => (
        <line
          key={i}
          x1={x + 3}
          x2={x + w - 3}
          y1={y + pitch * (i + 0.8)}
          y2={y + pitch * (i + 0.8)}
          stroke="#fff"
          stroke-width={pitch * 0.32}
          stroke-dasharray="1.1 0.9"
        />
      ))}
    </g>
  );
}

/** A portrait's place, so the page is held the right way up. */
function PortraitBox({ x, y, w, h }: { x: number; y: number; w: number; h: number }) {
  return (
    <g class="portrait-box">
      <rect x={x} y={y} width={w} height={h} rx="1" fill="none" stroke="#fff" stroke-width="0.5" stroke-dasharray="2 1.5" />
      <circle cx={x + w / 2} cy={y + h * 0.38} r={w * 0.22} fill="none" stroke="#fff" stroke-width="0.5" />
      <path d={`M${x + w * 0.18} ${y + h * 0.92} q${w * 0.32} ${-h * 0.42} ${w * 0.64} 0`} fill="none" stroke="#fff" stroke-width="0.5" />
    </g>
  );
}

/**
 * The outline to line the document up with, drawn over the camera: the page or card, its portrait
 * where it has one, and the band where the machine-readable lines must sit (the foot of a passport
 * page, the foot of a card's back).
 */
export function DocumentGuide({ kind, side }: { kind: DocumentKind; side: DocumentSide }) {
  const o = OUTLINE[kind];
  const zoneRows = kind === 'passport' ? 2 : side === 'back' ? 3 : 0;
  const zoneHeight = kind === 'passport' ? o.h * 0.2 : o.h * 0.36;
  return (
    <svg class="guide" viewBox="0 0 100 75" preserveAspectRatio="none" aria-hidden="true" data-guide={`${kind}-${side}`}>
      <rect x={o.x} y={o.y} width={o.w} height={o.h} rx="3" fill="none" stroke="#fff" stroke-width="0.8" stroke-dasharray="4 3" />
      {side === 'front' && (
        <PortraitBox x={o.x + 4} y={o.y + (kind === 'passport' ? 8 : 9)} w={o.w * 0.24} h={o.h * (kind === 'passport' ? 0.5 : 0.6)} />
      )}
      {zoneRows > 0 && <ZoneBand x={o.x + 2} y={o.y + o.h - zoneHeight - 2} w={o.w - 4} h={zoneHeight} rows={zoneRows} />}
    </svg>
  );
}

/** A small drawing of each document for the choice buttons. */
export function DocumentIcon({ kind }: { kind: DocumentKind }) {
  const passport = kind === 'passport';
  return (
    <svg class="document-icon" viewBox="0 0 64 48" aria-hidden="true">
      <rect x="4" y={passport ? 4 : 8} width="56" height={passport ? 40 : 32} rx="3" fill="#fff" stroke="currentColor" stroke-width="2" />
      <rect x="9" y={passport ? 9 : 13} width="13" height={passport ? 17 : 14} rx="1" fill="currentColor" opacity="0.35" />
      <line x1="26" x2="54" y1={passport ? 13 : 17} y2={passport ? 13 : 17} stroke="currentColor" stroke-width="2" opacity="0.5" />
      <line x1="26" x2="48" y1={passport ? 19 : 23} y2={passport ? 19 : 23} stroke="currentColor" stroke-width="2" opacity="0.5" />
      {passport && (
        <>
          <line x1="9" x2="55" y1="33" y2="33" stroke="currentColor" stroke-width="2.5" stroke-dasharray="2 1.5" />
          <line x1="9" x2="55" y1="38.5" y2="38.5" stroke="currentColor" stroke-width="2.5" stroke-dasharray="2 1.5" />
        </>
      )}
    </svg>
  );
}
