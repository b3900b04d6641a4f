// SET each tag, then REMOVE the unwanted ones; in draft mode, add a preview sampler.
const transforms = [];
for (const [tagKey, value] of Object.entries(tags)) {
  transforms.push({ type: "tag-action", order: transforms.length + 1, modification: "SET", tagKey, values: [value] });
}
for (const tagKey of removeTags) {
  transforms.push({ type: "tag-action", order: transforms.length + 1, modification: "REMOVE", tagKey, values: [] });
}
transforms.push({
  type: "tag-action", order: transforms.length + 1, modification: "ADD",
  tagKey: "enrichedBy", values: [user.getName()]
});

const vertices = [{ type: "log-transform", name: "tag", transforms }];
const edges = [];
if (draft) {
  vertices.push({ type: "logs-sample", name: "preview", size: sampleSize });
  edges.push("tag:output -> preview:input");
}
({ vertices, edges })
