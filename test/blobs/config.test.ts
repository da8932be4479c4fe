import { describe, expect, it } from 'vitest';
import { ConfigError, configFrom } from '../../src/config.js';

const s3 = { BLOB_STORE: 's3', S3_BUCKET: 'partner-blobs', S3_REGION: 'eu-central-1' };

describe('blob store configuration', () => {
  it('keeps files on disk unless told otherwise', () => {
    expect(configFrom()).toMatchObject({ BLOB_STORE: 'file', S3_FORCE_PATH_STYLE: false });
  });

  it('reads the S3 settings', () => {
    expect(configFrom({ ...s3, S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' })).toMatchObject({
      BLOB_STORE: 's3',
      S3_BUCKET: 'partner-blobs',
      S3_REGION: 'eu-central-1',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: true,
    });
  });

  it('refuses to start with an incomplete or malformed S3 setting, naming the variable', () => {
    const cases: [Record<string, string>, string][] = [
      [{ BLOB_STORE: 's3', S3_REGION: 'eu-central-1' }, 'invalid configuration: S3_BUCKET: required when BLOB_STORE=s3'],
      [{ BLOB_STORE: 's3', S3_BUCKET: 'partner-blobs' }, 'invalid configuration: S3_REGION: required when BLOB_STORE=s3'],
      [{ ...s3, S3_BUCKET: 'Partner_Blobs' }, 'invalid configuration: S3_BUCKET: a bucket name'],
      [{ ...s3, S3_ENDPOINT: 'minio:9000' }, 'invalid configuration: S3_ENDPOINT: an http(s) URL'],
      [{ ...s3, S3_FORCE_PATH_STYLE: 'yes' }, 'invalid configuration: S3_FORCE_PATH_STYLE:'],
      [{ BLOB_STORE: 'gcs' }, 'invalid configuration: BLOB_STORE:'],
    ];
    for (const [env, message] of cases) {
      expect(() => configFrom(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => configFrom(env), JSON.stringify(env)).toThrow(message);
    }
  });

  it('ignores S3 settings while the store is the file store', () => {
    expect(configFrom({ S3_REGION: 'eu-central-1' }).BLOB_STORE).toBe('file');
  });
});
