// Links and mentions in a post's text become facets: ranges in UTF-8 bytes (not UTF-16 code units, not
// graphemes) with what they point to. @atproto/api's RichText finds them and counts the bytes; a
// mention is kept only when its handle resolves to a DID on the account's PDS (an unresolved one stays
// plain text rather than a facet the PDS would refuse). Hashtags are left to the reader's app.
import { type Agent, type AppBskyRichtextFacet, AppBskyRichtextFacet as Facet, RichText } from "@atproto/api";

export interface DetectedText {
  facets: AppBskyRichtextFacet.Main[];
  /** The links in the text, in order: the first one without an image gets a link card. */
  links: string[];
}

export async function facetsOf(text: string, agent: Agent, signal: AbortSignal): Promise<DetectedText> {
  const rich = new RichText({ text });
  rich.detectFacetsWithoutResolution();
  const detected = rich.facets ?? [];
  // Handles are resolved side by side; each appears once however often it is mentioned.
  const handles = new Set<string>();
  for (const facet of detected) {
    for (const feature of facet.features) if (Facet.isMention(feature)) handles.add(feature.did);
  }
  const dids = new Map<string, string | undefined>(
    await Promise.all(
      [...handles].map(async (handle) => [handle, await resolveHandle(agent, handle, signal)] as const),
    ),
  );
  const facets: AppBskyRichtextFacet.Main[] = [];
  const links: string[] = [];
  for (const facet of detected) {
    const features: AppBskyRichtextFacet.Main["features"] = [];
    for (const feature of facet.features) {
      if (Facet.isLink(feature)) {
        features.push(feature);
        links.push(feature.uri);
      } else if (Facet.isMention(feature)) {
        // Before resolution the mention's `did` holds the handle as written.
        const did = dids.get(feature.did);
        if (did) features.push({ ...feature, did });
      }
    }
    if (features.length > 0) facets.push({ ...facet, features });
  }
  return { facets, links };
}

async function resolveHandle(agent: Agent, handle: string, signal: AbortSignal): Promise<string | undefined> {
  try {
    const { data } = await agent.com.atproto.identity.resolveHandle({ handle }, { signal });
    return data.did;
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}
