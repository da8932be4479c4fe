/** One operation's examples: its JSON request body and its answer, by status. */
interface OperationExample {
  request?: unknown;
  responses: Record<string, unknown>;
}

/** The examples of the OpenAPI document, by operationId (src/docs/openapi-examples.json). */
export type OperationExamples = Record<string, OperationExample>;

type Media = { example?: unknown };
type Operation = {
  operationId?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};

/** Puts each operation's examples on its JSON request body and responses. */
export function applyExamples(paths: Record<string, object>, examples: OperationExamples): void {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item) as (Operation | undefined)[]) {
      const example = op?.operationId ? examples[op.operationId] : undefined;
      if (!op || !example) continue;
      const body = op.requestBody?.content?.['application/json'];
      if (body && example.request !== undefined) body.example = example.request;
      for (const [status, answer] of Object.entries(example.responses)) {
        const media = op.responses?.[status]?.content?.['application/json'];
        if (media) media.example = answer;
      }
    }
  }
}
