export function file1_2() {
  return "file1_2";
}
