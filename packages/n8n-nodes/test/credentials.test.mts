import type { IDataObject } from "n8n-workflow";
import { afterEach, describe, expect, it } from "vitest";
import { SocialPublishApi } from "../credentials/SocialPublishApi.credentials.ts";
import { type InProcessService, inProcessService } from "./support/service.mts";

const credential = new SocialPublishApi();

/** Evaluates one of the credential's `={{ … }}` expressions the way n8n would, for these values. */
function evaluate(expression: string, credentials: IDataObject): string {
  return expression
    .replace(/^=/, "")
    .replace(/\{\{(.+?)\}\}/g, (_, code: string) =>
      String(new Function("$credentials", `return (${code});`)(credentials)),
    );
}

let service: InProcessService;
afterEach(async () => {
  await service?.close();
});

describe("Social Publish API credentials", () => {
  it("asks for the API key as a password field and the base URL with the local default", () => {
    expect(credential.displayName).toBe("Social Publish API");
    const [apiKey, baseUrl] = credential.properties;
    expect(apiKey).toMatchObject({
      name: "apiKey",
      type: "string",
      typeOptions: { password: true },
      required: true,
    });
    expect(baseUrl).toMatchObject({ name: "baseUrl", default: "http://127.0.0.1:8787/api/v1" });
  });

  it("tests the credential with GET /me, authenticated with a Bearer header, against a real service", async () => {
    service = await inProcessService();
    const values = { apiKey: service.credentials.apiKey, baseUrl: `${service.credentials.baseUrl}/` };
    const { request } = credential.test;
    const url = `${evaluate(String(request.baseURL), values)}${request.url}`;
    expect(url).toBe("http://service.test/api/v1/me");
    const authorization = evaluate(String(credential.authenticate.properties.headers?.Authorization), values);
    expect(authorization).toBe(`Bearer ${service.credentials.apiKey}`);

    const answered = (await service.http.request(
      "socialPublishApi",
      { method: request.method ?? "GET", url, returnFullResponse: true, ignoreHttpStatusErrors: true },
      service.credentials,
    )) as { statusCode: number };
    expect(answered.statusCode).toBe(200);
    const refused = (await service.http.request(
      "socialPublishApi",
      { method: "GET", url, returnFullResponse: true, ignoreHttpStatusErrors: true },
      { ...service.credentials, apiKey: "sp_test_notAKeyTheServiceKnows000000000000" },
    )) as { statusCode: number; body: unknown };
    expect(refused).toMatchObject({ statusCode: 401, body: { error: "Invalid or revoked API key." } });
  });

  it("names the fix for a wrong key (401) and a Base URL without /api/v1 (404), which n8n would show as bare status texts", () => {
    expect(credential.test.rules).toEqual([
      { type: "responseCode", properties: { value: 401, message: "Invalid or revoked API key." } },
      {
        type: "responseCode",
        properties: { value: 404, message: expect.stringContaining("include the version segment") },
      },
    ]);
  });
});
