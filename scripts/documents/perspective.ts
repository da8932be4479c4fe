/**
 * Puts a raw RGB image in perspective: the output's corners show the input's corners moved to
 * `corners` (top-left, top-right, bottom-right, bottom-left), as a phone held at an angle does.
 * sharp has only affine transforms; a homography with bilinear sampling is a few dozen lines.
 */
export function warpPerspective(src: Buffer, width: number, height: number, corners: [number, number][]): Buffer {
  // The homography from output pixels back to input pixels: it maps `corners` to the input's corners.
  const target: [number, number][] = [
    [0, 0],
    [width, 0],
    [width, height],
    [0, height],
  ];
  const h = homography(corners, target);
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = h[6]! * x + h[7]! * y + 1;
      const sx = (h[0]! * x + h[1]! * y + h[2]!) / d;
      const sy = (h[3]! * x + h[4]! * y + h[5]!) / d;
      const o = (y * width + x) * 3;
      if (sx < 0 || sy < 0 || sx >= width - 1 || sy >= height - 1) {
        out[o] = 60;
        out[o + 1] = 50;
        out[o + 2] = 40;
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const i = (y0 * width + x0) * 3 + c;
        const top = src[i]! * (1 - fx) + src[i + 3]! * fx;
        const bottom = src[i + width * 3]! * (1 - fx) + src[i + width * 3 + 3]! * fx;
        out[o + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return out;
}

/** The 3×3 homography (h33 = 1) taking each `from` point to its `to` point: an 8×8 linear solve. */
function homography(from: [number, number][], to: [number, number][]): number[] {
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i]!;
    const [u, v] = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  return solve(a, b);
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / a[col]![col]!;
      for (let c = col; c < n; c++) a[r]![c]! -= f * a[col]![c]!;
      b[r]! -= f * b[col]!;
    }
  }
  return b.map((v, i) => v / a[i]![i]!);
}
