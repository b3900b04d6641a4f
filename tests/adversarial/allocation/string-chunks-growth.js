// Many distinct 1 KiB strings kept alive in an array (gradual growth).
const chunk = 'x'.repeat(1024);
const keep = [];
for (let i = 0; ; i++) keep.push(chunk + i);
