import type { Config } from "../config/index.js";
import type { BlobStore } from "./blob-store.js";
import { DiskBlobStore } from "./disk-store.js";
import { S3BlobStore } from "./s3-store.js";

/** The blob store the configuration names; S3 credentials come from the named variables. */
export function createBlobStore(
  files: Config["files"],
  env: Record<string, string | undefined>,
): BlobStore {
  if (files.store === "disk") return new DiskBlobStore(files.dir);
  const accessKeyId = files.access_key_id_env ? env[files.access_key_id_env] : undefined;
  const secretAccessKey = files.secret_access_key_env
    ? env[files.secret_access_key_env]
    : undefined;
  return new S3BlobStore({
    bucket: files.bucket,
    client: {
      region: files.region,
      forcePathStyle: files.force_path_style,
      ...(files.endpoint ? { endpoint: files.endpoint } : {}),
      ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    },
  });
}
