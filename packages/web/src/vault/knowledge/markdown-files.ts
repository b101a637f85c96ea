/** Documents whose text is markdown: the viewer and the search snippets render those; code and plain text stay as written. */
export const isMarkdownFile = (filename: string) => /\.(md|markdown|mdx)$/i.test(filename);
