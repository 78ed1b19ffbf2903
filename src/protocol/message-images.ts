// The images a message holds (its own, and those in its tool results) and the message with each of
// them replaced: the one walk of them for every pass over what a request sends (sendable-images.ts,
// request-images.ts). Rule: a message found to hold no image is remembered, since every request
// sends the whole transcript again; a message none of whose images is replaced is returned as it is.
import type { ContentBlock, ImageBlock, Message, TextBlock } from "./messages.ts";

/** Messages found to hold no image. */
const imageless = new WeakSet<Message>();

/** The images of a message, in order: its own and those inside its tool results. */
export function imagesOf(message: Message): ImageBlock[] {
  if (imageless.has(message)) return [];
  const images: ImageBlock[] = [];
  for (const block of message.content) {
    if (block.type === "image") images.push(block);
    else if (block.type === "tool_result") for (const c of block.content) if (c.type === "image") images.push(c);
  }
  if (images.length === 0) imageless.add(message);
  return images;
}

/** The message with each image `replace` gives another block for (a text saying why it is not sent); the same message when it gives none. */
export function withImagesReplaced(message: Message, replace: (image: ImageBlock) => ImageBlock | TextBlock): Message {
  if (imagesOf(message).length === 0) return message;
  const content = message.content.map((block): ContentBlock => {
    if (block.type === "image") return replace(block);
    if (block.type !== "tool_result" || !block.content.some((c) => c.type === "image")) return block;
    const inner = block.content.map((c) => (c.type === "image" ? replace(c) : c));
    return inner.every((c, i) => c === block.content[i]) ? block : { ...block, content: inner };
  });
  return content.every((block, i) => block === message.content[i]) ? message : { ...message, content };
}
