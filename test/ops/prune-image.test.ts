import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The image's prune step (scripts/prune-image.mjs, run by the Dockerfile after `npm ci --omit=dev`)
 * on a copy of the installed recognition packages: it keeps what the server loads of them and
 * refuses, failing the image build, when a package no longer holds a file it must keep (a new
 * version that moved a model, say), instead of building an image whose engines cannot load. That
 * the kept files are enough is proved in the image itself (`npm run test:container`, the engines check).
 */

const ENGINE_PACKAGES = ['@tensorflow', '@vladmandic', 'tesseract.js-core', '@tesseract.js-data'];
const dirs: string[] = [];

/** A node_modules holding the installed engine packages, a tsx package and its command, as an install leaves them. */
function installedCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'prune-image-'));
  dirs.push(root);
  // Hard links where the temporary directory shares node_modules' file system (the prune only
  // unlinks, never writes), a copy elsewhere.
  const linked = spawnSync('cp', ['-al', ...ENGINE_PACKAGES, root], { cwd: 'node_modules' });
  if (linked.status !== 0) execFileSync('cp', ['-a', ...ENGINE_PACKAGES, root], { cwd: 'node_modules' });
  writeFileSync(join(root, '.package-lock.json'), '{}');
  mkdirSync(join(root, 'tsx', 'dist'), { recursive: true });
  writeFileSync(join(root, 'tsx', 'dist', 'cli.mjs'), '');
  mkdirSync(join(root, '.bin'));
  symlinkSync('../tsx/dist/cli.mjs', join(root, '.bin', 'tsx'));
  return root;
}

const prune = (root: string) => spawnSync(process.execPath, ['scripts/prune-image.mjs', root], { encoding: 'utf8' });

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the image prune step', () => {
  it('keeps the builds, binaries and models the server loads and removes the rest', () => {
    const root = installedCopy();
    const at = (path: string) => existsSync(join(root, path));
    const kept = [
      '@tensorflow/tfjs/dist/tf.node.js',
      '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm',
      '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm',
      '@vladmandic/human/dist/human.node.js',
      '@vladmandic/human/dist/human.node-wasm.js',
      '@vladmandic/human/models/liveness.bin',
      '@vladmandic/face-api/dist/face-api.node-wasm.js',
      '@vladmandic/face-api/model/face_recognition_model.bin',
      'tesseract.js-core/tesseract-core-relaxedsimd-lstm.js',
      'tesseract.js-core/tesseract-core.wasm',
      '@tesseract.js-data/eng/4.0.0/eng.traineddata.gz',
    ];
    const removed = [
      '@tensorflow/tfjs/dist/tf.min.js',
      '@tensorflow/tfjs-core/dist/tf-core.node.js.map',
      '@vladmandic/human/demo',
      '@vladmandic/human/models/faceres.bin',
      '@vladmandic/face-api/model/age_gender_model.bin',
      'tesseract.js-core/tesseract-core-simd.wasm.js',
      'tsx',
      '.bin/tsx',
    ];
    // Each removed path was there before: the test would pass on a tree that never had them otherwise.
    expect([...kept, ...removed].filter((p) => !at(p))).toEqual([]);

    const run = prune(root);

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(kept.filter((p) => !at(p))).toEqual([]);
    expect(removed.filter((p) => at(p))).toEqual([]);
  });

  it('refuses, and fails the build, when a package lacks a file the server loads', () => {
    const root = installedCopy();
    unlinkSync(join(root, '@vladmandic/human/models/liveness.bin'));

    const run = prune(root);

    expect(run.status).toBe(1);
    expect(run.stderr).toContain('@vladmandic/human has no models/liveness.bin');
  });

  it('refuses when a package it prunes is not installed', () => {
    const root = installedCopy();
    rmSync(join(root, 'tesseract.js-core'), { recursive: true });

    const run = prune(root);

    expect(run.status).toBe(1);
    expect(run.stderr).toContain('tesseract.js-core is not installed');
  });

  it('refuses a directory that is not an npm install', () => {
    const root = mkdtempSync(join(tmpdir(), 'prune-image-'));
    dirs.push(root);

    const run = prune(root);

    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage: prune-image.mjs');
  });
});
