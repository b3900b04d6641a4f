// import.meta through eval: not available in a script.
eval('import.meta')
