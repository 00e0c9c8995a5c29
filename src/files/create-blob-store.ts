import type { Config } from "../config/index.js";
import type { BlobStore } from "./blob-store.js";
import { DiskBlobStore } from "./disk-store.js";

/**
 * The blob store the configuration names; S3 credentials come from the named variables. The S3
 * client is loaded only for an S3 store: it costs every other process ~10 MB of memory.
 */
export async function createBlobStore(
  files: Config["files"],
  env: Record<string, string | undefined>,
): Promise<BlobStore> {
  if (files.store === "disk") return new DiskBlobStore(files.dir);
  const accessKeyId = files.access_key_id_env ? env[files.access_key_id_env] : undefined;
  const secretAccessKey = files.secret_access_key_env
    ? env[files.secret_access_key_env]
    : undefined;
  const { S3BlobStore } = await import("./s3-store.js");
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
