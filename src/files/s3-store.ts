import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import {
  assertSafeKey,
  BlobNotFoundError,
  type BlobStore,
  isSafeKey,
  type StoredBlob,
} from "./blob-store.js";

/** S3 requires every part but the last to be at least 5 MiB; one part is buffered at a time. */
const PART_BYTES = 8 * 1024 * 1024;

export interface S3BlobStoreOptions {
  bucket: string;
  client: S3ClientConfig;
}

/** Blobs as objects in one bucket (AWS S3, MinIO, s3rver, …), uploaded in parts as they stream. */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3BlobStoreOptions) {
    this.client = new S3Client(options.client);
    this.bucket = options.bucket;
  }

  async put(key: string, body: Readable): Promise<void> {
    assertSafeKey(key);
    let uploadId: string | null = null;
    const parts: { ETag: string | undefined; PartNumber: number }[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flushPart = async () => {
      uploadId ??= await this.startMultipart(key);
      const PartNumber = parts.length + 1;
      const result = await this.client.send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber,
          Body: Buffer.concat(pending),
        }),
      );
      parts.push({ ETag: result.ETag, PartNumber });
      pending = [];
      pendingBytes = 0;
    };
    try {
      for await (const chunk of body) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        pending.push(buffer);
        pendingBytes += buffer.length;
        if (pendingBytes >= PART_BYTES) await flushPart();
      }
      if (uploadId === null) {
        await this.client.send(
          new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: Buffer.concat(pending) }),
        );
        return;
      }
      if (pendingBytes > 0) await flushPart();
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      if (uploadId !== null) await this.abortMultipart(key, uploadId);
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    assertSafeKey(key);
    try {
      const result = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      return result.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") {
        throw new BlobNotFoundError(key);
      }
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Unfinished multipart uploads are not objects yet, so they never appear here. */
  async *list(): AsyncIterable<StoredBlob> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }),
      );
      for (const { Key, LastModified } of page.Contents ?? []) {
        if (Key && LastModified && isSafeKey(Key)) {
          yield { key: Key, lastModified: LastModified.getTime() };
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private async startMultipart(key: string): Promise<string> {
    const started = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }),
    );
    if (!started.UploadId) throw new Error("object store returned no upload id");
    return started.UploadId;
  }

  private async abortMultipart(key: string, uploadId: string): Promise<void> {
    await this.client
      .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
      .catch(() => undefined);
  }
}
