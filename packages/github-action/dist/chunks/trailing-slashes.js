function withoutTrailingSlashes(e){let t=e.length;for(;t>0&&e.charCodeAt(t-1)===47;)t--;return e.slice(0,t)}export{withoutTrailingSlashes as t};
//# sourceMappingURL=trailing-slashes.js.map